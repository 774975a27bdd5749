// Running a shell command from a test and finding a Python that can import
// NumPy: shared by the table file tests (lib) and the validate tests, which
// check pecheck against tables NumPy writes. Test support only, never installed.
#pragma once

#include <stdio.h>
#include <stdlib.h>

#include <array>
#include <cstddef>
#include <optional>
#include <string>
#include <vector>

namespace pecheck::testing {

struct CommandResult {
  int status = -1;  // pclose's status; -1 when the command could not be started
  std::string output;
};

// Runs `command` with /bin/sh and collects its standard output (append 2>&1
// to the command for its errors too).
inline CommandResult run_command(const std::string& command) {
  CommandResult result;
  FILE* pipe = ::popen(command.c_str(), "r");
  if (pipe == nullptr) return result;
  std::array<char, 4096> buffer{};
  std::size_t got = 0;
  while ((got = std::fread(buffer.data(), 1, buffer.size(), pipe)) > 0) result.output.append(buffer.data(), got);
  result.status = ::pclose(pipe);
  return result;
}

// `text` as one single-quoted shell word.
inline std::string shell_quote(const std::string& text) {
  std::string quoted = "'";
  for (const char c : text) quoted += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return quoted + "'";
}

// A Python interpreter that can import NumPy: $PECHECK_PYTHON if set, else
// python3 on PATH, else the system's /usr/bin/python3 (a PATH python3 from a
// version manager often lacks the distribution's numpy). nullopt when none
// can: the tests that need NumPy skip, saying so.
inline std::optional<std::string> python_with_numpy() {
  std::vector<std::string> candidates;
  if (const char* chosen = std::getenv("PECHECK_PYTHON")) candidates.emplace_back(chosen);
  candidates.emplace_back("python3");
  candidates.emplace_back("/usr/bin/python3");
  for (const auto& candidate : candidates) {
    if (run_command(shell_quote(candidate) + " -c 'import numpy' 2>/dev/null").status == 0) return candidate;
  }
  return std::nullopt;
}

}  // namespace pecheck::testing
