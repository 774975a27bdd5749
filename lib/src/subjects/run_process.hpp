// Runs a shell command with a time limit, capturing what it prints.
#pragma once

#include <chrono>
#include <cstdint>
#include <string>

namespace pecheck {

struct ProcessResult {
  bool timed_out = false;
  int exit_status = -1;   // when it exited, the status as it is (a shell's 128 + N included)
  int signal = 0;         // when a signal ended the shell itself (0 otherwise)
  std::string output;     // stdout and stderr together, the last `kept_output` bytes
};

// /bin/sh -c command in its own process group, stdin from /dev/null. The call
// ends when the shell EXITS (not when its output closes: a background child
// may hold the pipe), or at the timeout; then the whole group is killed
// (SIGKILL), so no child outlives the call. Throws Interrupted (after killing
// the group) when SIGINT or SIGTERM arrives, with pecheck's handlers installed.
// `memory_limit_bytes` > 0: the shell and everything it starts run with that
// RLIMIT_AS (address space), set in the child between fork and exec.
ProcessResult run_shell(const std::string& command, std::chrono::milliseconds timeout, std::size_t kept_output = 2000,
                        std::uint64_t memory_limit_bytes = 0);

// Sets RLIMIT_AS (soft and hard) to `bytes` when it is > 0. Async-signal-safe:
// for a child between fork and exec.
void limit_address_space(std::uint64_t bytes) noexcept;

// "exited with status N" or "was killed by signal N (NAME)", with a note when
// N > 128 that a shell reports a command a signal killed as 128 + the signal.
std::string describe_exit(const ProcessResult& result);

}  // namespace pecheck
