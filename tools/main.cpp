#include <signal.h>

#include <cerrno>
#include <cstring>
#include <exception>
#include <iostream>
#include <vector>
#include <string>
#include <utility>

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

  // Every command, in the order --help lists them. A command line naming one
  // registers that one alone: building every command's options (their help
  // text lists presets, checks and faults) is most of pecheck's start-up,
  // which a short `pecheck table` pays in full (bench: table_cli's start-up).
  using AddCommand = pecheck::tools::Command (*)(CLI::App&);
  const std::vector<std::pair<std::string, AddCommand>> known_commands = {
      {"conventions", pecheck::tools::add_conventions_command},
      {"table", pecheck::tools::add_table_command},
      {"check", pecheck::tools::add_check_command},
      {"report", pecheck::tools::add_report_command},
      {"validate", pecheck::tools::add_validate_command},
      {"bench", pecheck::tools::add_bench_command},
      {"sweep", pecheck::tools::add_sweep_command},
      {"merge", pecheck::tools::add_merge_command},
      {"rope", pecheck::tools::add_rope_command},
  };
  std::vector<pecheck::tools::Command> commands;
  if (argc > 1 && argv[1][0] != '-') {
    for (const auto& [name, add] : known_commands) {
      if (name == argv[1]) commands.push_back(add(app));
    }
    if (commands.empty()) {
      // CLI11 reports a mistyped command as "A subcommand is required"; name it.
      std::string names;
      for (const auto& known : known_commands) names += (names.empty() ? "" : ", ") + known.first;
      print_error("unknown command '" + std::string(argv[1]) + "'; commands: " + names + " (see --help)");
      return exit_bad_usage;
    }
  } else {
    // No command named (--help, --help-all, nothing): all of them, for the help.
    for (const auto& known : known_commands) commands.push_back(known.second(app));
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
