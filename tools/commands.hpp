// Each subcommand of the pecheck command line registers itself on the app and
// returns the function that runs it. Exit status: 0 all checks hold, 1 a
// check failed, 2 bad usage or bad input (one line on stderr).
#pragma once

#include <functional>

#include <CLI/CLI.hpp>

namespace pecheck::tools {

// A registered subcommand and the function that runs it once parsed.
struct Command {
  CLI::App* parsed_from = nullptr;
  std::function<int()> run;
};

Command add_conventions_command(CLI::App& app);
Command add_table_command(CLI::App& app);
Command add_rope_command(CLI::App& app);
Command add_report_command(CLI::App& app);
Command add_check_command(CLI::App& app);
Command add_validate_command(CLI::App& app);
Command add_bench_command(CLI::App& app);
Command add_sweep_command(CLI::App& app);
Command add_merge_command(CLI::App& app);

}  // namespace pecheck::tools
