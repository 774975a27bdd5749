#include <exception>
#include <iostream>
#include <vector>
#include <string>

#include "commands.hpp"
#include "pecheck/convention.hpp"
#include "pecheck/properties/property_runner.hpp"

namespace {

constexpr int exit_bad_usage = 2;

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{
      "pecheck: numerical verification of the Transformer input layer (token embeddings scaled by\n"
      "sqrt(d_model) plus a sinusoidal positional encoding) against a correctly rounded oracle."};
  app.require_subcommand(1);
  app.set_help_all_flag("--help-all", "Show help for every command");

  const std::vector<pecheck::tools::Command> commands = {
      pecheck::tools::add_conventions_command(app),
      pecheck::tools::add_table_command(app),
      pecheck::tools::add_check_command(app),
      pecheck::tools::add_report_command(app),
      pecheck::tools::add_validate_command(app),
      pecheck::tools::add_bench_command(app),
  };

  // CLI11 reports a mistyped command as "A subcommand is required"; name it.
  if (argc > 1 && argv[1][0] != '-') {
    std::string names;
    bool known = false;
    for (const pecheck::tools::Command& command : commands) {
      known = known || command.parsed_from->get_name() == argv[1];
      names += (names.empty() ? "" : ", ") + command.parsed_from->get_name();
    }
    if (!known) {
      std::cerr << "pecheck: unknown command '" << argv[1] << "'; commands: " << names << " (see --help)\n";
      return exit_bad_usage;
    }
  }

  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForAllHelp& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    // One line on stderr naming the flag and what is wrong.
    std::cerr << "pecheck: " << e.what() << " (see --help)\n";
    return exit_bad_usage;
  }

  try {
    for (const pecheck::tools::Command& command : commands) {
      if (!command.parsed_from->parsed()) continue;
      // The commands that run properties read RC_PARAMS: an unreadable one is
      // bad input (exit 2), not a failed check.
      const std::string& name = command.parsed_from->get_name();
      if (name == "check" || name == "report" || name == "validate") pecheck::properties::require_readable_rc_params();
      return command.run();
    }
  } catch (const pecheck::ConventionError& e) {
    std::cerr << "pecheck: " << e.what() << '\n';
    return exit_bad_usage;
  } catch (const std::exception& e) {
    std::cerr << "pecheck: " << e.what() << '\n';
    return exit_bad_usage;
  }
  return exit_bad_usage;
}
