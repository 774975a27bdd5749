#include <signal.h>

#include <cerrno>
#include <cstring>
#include <exception>
#include <iostream>
#include <optional>
#include <vector>
#include <string>
#include <utility>

#include "commands.hpp"
#include "flag_suggestions.hpp"
#include "pecheck/isa.hpp"
#include "pecheck/process_limits.hpp"
#include "pecheck/convention.hpp"
#include "pecheck/one_line_text.hpp"
#include "pecheck/properties/property_runner.hpp"

namespace {

constexpr int exit_bad_usage = 2;

// Every error line goes out as one line, whatever user text (a path, file
// content, a flag's value) it quotes.
// Nor is it ever longer than a screenful: a message quoting a huge value
// (CLI11's "arguments were not expected" quotes them whole) is cut, with
// its length.
void print_error(const std::string& message) {
  std::cerr << "pecheck: " << pecheck::excerpt(message, 4000) << '\n';
}

// The first option of `command` given an empty value ("--output-dir ''"),
// or null. An empty path or number is never what was meant: --output-dir ""
// was silently ignored by one command and an error from the file system
// library in another.
const CLI::Option* option_with_empty_value(const CLI::App& command) {
  for (const CLI::Option* option : command.get_options()) {
    // Flags take no value; positionals are checked by their commands.
    if (option->count() == 0 || option->get_type_size_max() == 0 || option->get_name().rfind("--", 0) != 0) continue;
    for (const std::string& value : option->results()) {
      if (value.empty()) return option;
    }
  }
  return nullptr;
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
  pecheck::reserve_memory_for_unwinding();
  // A closed stdout then fails a write with EPIPE, which finish_stdout
  // reports, instead of killing pecheck silently. Commands pecheck runs get
  // the default action back (see run_process.cpp).
  ::signal(SIGPIPE, SIG_IGN);
  // Likewise a file past `ulimit -f`: ignored, the write fails with EFBIG,
  // which the writer reports naming the file (and removes its temporary),
  // instead of a silent death by SIGXFSZ.
  ::signal(SIGXFSZ, SIG_IGN);
  pecheck::report_peak_memory_at_exit_if_asked();
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
    // An unknown --flag: named, with the command's closest option.
    if (commands.size() == 1) {
      if (const std::optional<std::string> unknown = pecheck::tools::unknown_flag_message(*commands.front().parsed_from, argc, argv)) {
        print_error(*unknown);
        return exit_bad_usage;
      }
    }
    // One line on stderr naming the flag and what is wrong.
    // CLI11 quotes stray arguments whole: an excerpt of its message.
    print_error(pecheck::excerpt(e.what(), 300) + " (see --help)");
    return exit_bad_usage;
  }

  try {
    for (const pecheck::tools::Command& command : commands) {
      if (!command.parsed_from->parsed()) continue;
      // The commands that run properties read RC_PARAMS: an unreadable one is
      // bad input (exit 2), not a failed check.
      if (const CLI::Option* empty = option_with_empty_value(*command.parsed_from)) {
        print_error(empty->get_name() + ": an empty value (expected a path, a name or a number)");
        return exit_bad_usage;
      }
      const std::string& name = command.parsed_from->get_name();
      if (name == "check" || name == "report" || name == "validate") pecheck::properties::require_readable_rc_params();
      // A PECHECK_ISA naming no variant this CPU runs: bad usage, before any work.
      pecheck::isa::selected();
      return finish_stdout(command.run());
    }
  } catch (const pecheck::ConventionError& e) {
    print_error(e.what());
    return finish_stdout(exit_bad_usage);
  } catch (const std::bad_alloc&) {
    // Exit 2, not 1: 1 says a check found the subject wrong, and running out
    // of memory says nothing about the subject. The readers refuse what they
    // can see will not fit before allocating (memory_limit.hpp); this is what
    // they could not foresee, and the remedy is the invocation's (a smaller
    // input, fewer threads, a higher ulimit -v).
    print_error("out of memory (an allocation failed under this process's limits: ulimit -v, cgroup memory or "
                "physical memory; expected a smaller input or more memory)");
    return finish_stdout(exit_bad_usage);
  } catch (const std::exception& e) {
    print_error(e.what());
    return finish_stdout(exit_bad_usage);
  }
  return exit_bad_usage;
}
