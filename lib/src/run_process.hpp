// Runs a shell command with a time limit, capturing what it prints.
#pragma once

#include <chrono>
#include <string>

namespace pecheck {

struct ProcessResult {
  bool timed_out = false;
  int exit_status = -1;   // when it exited
  int signal = 0;         // when a signal ended it (0 otherwise)
  std::string output;     // stdout and stderr together, the last `kept_output` bytes
};

// /bin/sh -c command in its own process group, stdin from /dev/null. On
// timeout the whole group is killed (SIGKILL), so a command's children go too.
ProcessResult run_shell(const std::string& command, std::chrono::milliseconds timeout, std::size_t kept_output = 2000);

}  // namespace pecheck
