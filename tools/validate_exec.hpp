// `pecheck validate --exec 'COMMAND {rows} {dim} {offset} {dtype} {output}'`:
// an external implementation checked by the encoding-bounds and conformance
// families, each failure shrunk to its smallest call and printed as a command
// line that reproduces it.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

namespace pecheck::tools {

struct ExecOptions {
  std::string command;
  std::string protocol = "one-shot";  // or "lines"
  double timeout_seconds = 60.0;
  std::vector<std::string> dtypes;  // default float32
  std::vector<std::string> checks;  // default: every encoding-bounds and conformance check
  int cases = 25;
  std::uint64_t seed = 0;
  bool seed_given = false;
  bool quick = false;
};

void add_exec_options(CLI::App& command, ExecOptions& options);

// Runs the checks on the command; exit status 0 when every check held, 1 otherwise.
int validate_exec(const ExecOptions& options, const std::string& convention_name, bool json);

}  // namespace pecheck::tools
