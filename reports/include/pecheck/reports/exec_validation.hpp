// `pecheck validate --exec 'COMMAND {rows} {dim} {offset} {dtype} {output}'`:
// an external implementation checked by the encoding-bounds and conformance
// families, each failure shrunk to its smallest call and printed as a command
// line that reproduces it.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include <optional>

#include "pecheck/convention.hpp"
#include "pecheck/external_subjects.hpp"

namespace pecheck::reports {

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
  // What the model supports and what one call may use (CallLimits in
  // external_subjects.hpp), shared by every --exec runner: unset, a runner
  // takes its default (the rotary convention's max_position_embeddings; 2^24
  // and the generators' widths for an additive convention, which names no
  // trained length).
  std::optional<std::int64_t> max_position;  // --max-position: positions 0 .. N-1
  std::optional<std::int64_t> dim;           // --dim: widths up to D
  std::optional<double> memory_limit_mib;    // --memory-limit; default: default_memory_limit_bytes()
};

// Half the memory one allocation may take (allocation_limit(): physical
// memory, ulimit -v, ulimit -d): a command that holds more is stopped before
// the machine swaps or the OOM killer picks a process.
std::uint64_t default_memory_limit_bytes();

// Runs the checks on the command; exit status 0 when every check held, 1 otherwise.
int validate_exec(const ExecOptions& options, const std::optional<Convention>& convention, bool json);

// What the additive and the rotary --exec share (rotary_exec_validation.hpp).
//
// A command that fails on its first call is broken, not deviating: exit 2.
constexpr int exit_broken_command = 2;
// Throws ConventionError for a template without the placeholders a call
// replaces ({rows} {dim} {offset} {output}, {dtype} with several formats), or
// with any under the lines protocol.
void require_exec_template(const ExecOptions& options);
// Throws ConventionError naming TMPDIR when a call's directory cannot be made.
void require_exec_temporary_directory();
// The command subject's options from --exec, --exec-protocol, --timeout and
// --exec-dtype; the caller sets the convention.
CommandSubjectOptions command_subject_options(const ExecOptions& options);
// The failure's first line, then at most `max_lines` lines of what the command
// printed, indented, so a traceback reads once rather than once per check.
std::string broken_subject_message(const std::string& failure, std::size_t max_lines = 10);
// A call that stops the run with exit 2 wherever it happens: one that timed
// out or ran out of its memory limit (the model's limits are wrong for this
// machine, not the encoding). "" for any other failure.
std::string stopping_failure(const CommandFailedError& error);
// One line for stderr saying what the limits are, so a log shows them.
std::string limits_note(const CallLimits& limits);
// Runs `run` with Ctrl-C and SIGTERM killing the command's process group;
// pecheck then dies of the same signal.
int run_interruptible(const std::function<int()>& run);

}  // namespace pecheck::reports
