#include <signal.h>

#include <cerrno>
#include <cstring>
#include <exception>
#include <iostream>
#include <vector>
#include <string>

#include "commands.hpp"
#include "peak_memory.hpp"
#include "pecheck/convention.hpp"
#include "pecheck/one_line_text.hpp"
#include "pecheck/properties/property_runner.hpp"

namespace {

constexpr int exit_bad_usage = 2;

// Every error line goes out as one line, whatever user text (a path, file
// content, a flag's value) it quotes.
void print_error(const std::string& message) {
  std::cerr << "pecheck: " << pecheck::escape_control_characters(message) << '\n';
}

// What was printed must have arrived: a full disk (> /dev/full) or a reader
// that is gone (| head -c 0) is an error, exit 2, not a silent success.
int finish_stdout(int status) {
  errno = 0;
  std::cout.flush();
  if (!std::cout.good()) {
    const int error = errno;
    print_error(std::string("cannot write the output to stdout: ") +
                (error != 0 ? std::strerror(error) : "the write failed"));
    return exit_bad_usage;
  }
  return status;
}

}  // namespace

int main(int argc, char** argv) {
  // A closed stdout then fails a write with EPIPE, which finish_stdout
  // reports, instead of killing pecheck silently. Commands pecheck runs get
  // the default action back (see run_process.cpp).
  ::signal(SIGPIPE, SIG_IGN);
  pecheck::tools::report_peak_memory_at_exit_if_asked();
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
      pecheck::tools::add_sweep_command(app),
      pecheck::tools::add_merge_command(app),
      pecheck::tools::add_rope_command(app),
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
      print_error("unknown command '" + std::string(argv[1]) + "'; commands: " + names + " (see --help)");
      return exit_bad_usage;
    }
  }

  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    return finish_stdout(app.exit(e));
  } catch (const CLI::CallForAllHelp& e) {
    return finish_stdout(app.exit(e));
  } catch (const CLI::ParseError& e) {
    // One line on stderr naming the flag and what is wrong.
    print_error(std::string(e.what()) + " (see --help)");
    return exit_bad_usage;
  }

  try {
    for (const pecheck::tools::Command& command : commands) {
      if (!command.parsed_from->parsed()) continue;
      // The commands that run properties read RC_PARAMS: an unreadable one is
      // bad input (exit 2), not a failed check.
      const std::string& name = command.parsed_from->get_name();
      if (name == "check" || name == "report" || name == "validate") pecheck::properties::require_readable_rc_params();
      return finish_stdout(command.run());
    }
  } catch (const pecheck::ConventionError& e) {
    print_error(e.what());
    return finish_stdout(exit_bad_usage);
  } catch (const std::exception& e) {
    print_error(e.what());
    return finish_stdout(exit_bad_usage);
  }
  return exit_bad_usage;
}
