// What every `validate --exec` runner shares (exec_validation.hpp): the
// template's placeholders, the temporary directory, the command subject's
// options with the model's limits (CallLimits: --max-position, --dim,
// --memory-limit, progress per call), the failures that stop a run, and
// Ctrl-C. The additive, rotary and rotated runners call these.
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstring>
#include <iostream>
#include <sstream>

#include "pecheck/count_text.hpp"
#include "pecheck/external_subjects.hpp"
#include "pecheck/interrupts.hpp"
#include "pecheck/memory_limit.hpp"
#include "pecheck/one_line_text.hpp"
#include "pecheck/reports/exec_validation.hpp"

namespace pecheck::reports {

// The placeholders a template must hold: without {output} the command cannot
// write where pecheck reads, and every request varies the rows, the width and
// the first row; {dtype} only when the command is asked for several formats.
void require_exec_template(const ExecOptions& options) {
  if (options.protocol == "lines") {
    for (const char* name : {"{rows}", "{dim}", "{offset}", "{dtype}", "{output}"}) {
      if (options.command.find(name) == std::string::npos) continue;
      throw ConventionError("--exec '" + escape_control_characters(options.command) + "' holds " + name +
                            ": with --exec-protocol lines the command is started once and reads each request "
                            "(ROWS DIM OFFSET DTYPE OUTPUT) from its stdin, so its template holds no placeholders");
    }
    return;
  }
  std::vector<std::string> needed = {"{rows}", "{dim}", "{offset}", "{output}"};
  if (options.dtypes.size() > 1) needed.push_back("{dtype}");
  std::string missing;
  for (const std::string& name : needed) {
    if (options.command.find(name) != std::string::npos) continue;
    missing += (missing.empty() ? "" : ", ") + name;
  }
  if (!missing.empty()) {
    throw ConventionError("--exec '" + escape_control_characters(options.command) + "' lacks " + missing +
                          ": the template must hold {rows} {dim} {offset} {output} (and {dtype} with several "
                          "--exec-dtype), replaced for each call");
  }
}

std::string broken_subject_message(const std::string& failure, std::size_t max_lines) {
  std::istringstream lines(failure);
  std::string line;
  std::getline(lines, line);
  std::string message = "--exec: the command failed on its first call, so no check can run (the subject is broken, "
                        "not deviating): " + line + "\n";
  std::size_t shown = 0;
  std::size_t more = 0;
  while (std::getline(lines, line)) {
    if (shown < max_lines) {
      message += "  " + line + "\n";
      ++shown;
    } else {
      ++more;
    }
  }
  if (more > 0) message += "  ... (" + count_of(static_cast<std::int64_t>(more), "more line") + ")\n";
  return message;
}

void require_exec_temporary_directory() {
  try {
    check_temporary_directory();
  } catch (const TemporaryDirectoryError& e) {
    throw ConventionError(std::string("--exec: ") + e.what() +
                          " (the command's tables are written there; set TMPDIR to a writable directory)");
  }
}

CommandSubjectOptions command_subject_options(const ExecOptions& options) {
  CommandSubjectOptions subject_options;
  subject_options.command_template = options.command;
  if (options.protocol == "lines") subject_options.protocol = CommandProtocol::lines;
  // --timeout is finite and positive (its validator); past 1e9 s it cannot matter.
  const double timeout_seconds = std::min(options.timeout_seconds, 1e9);
  subject_options.timeout = std::chrono::milliseconds(static_cast<long long>(std::ceil(timeout_seconds * 1000.0)));
  subject_options.limits.max_position = options.max_position;
  subject_options.limits.max_dim = options.dim;
  // --memory-limit is finite and positive (its validator); MiB to bytes.
  subject_options.limits.memory_bytes =
      options.memory_limit_mib
          ? static_cast<std::uint64_t>(std::min(*options.memory_limit_mib, 1e12) * 1024.0 * 1024.0)
          : default_memory_limit_bytes();
  subject_options.limits.progress = true;
  subject_options.formats.clear();
  for (const std::string& dtype : options.dtypes) subject_options.formats.push_back(*parse_format(dtype));
  if (subject_options.formats.empty()) subject_options.formats.push_back(FormatId::float32);
  return subject_options;
}

std::uint64_t default_memory_limit_bytes() { return allocation_limit() / 2; }

std::string stopping_failure(const CommandFailedError& error) {
  if (dynamic_cast<const CommandTimedOutError*>(&error) != nullptr) return "timed out (--timeout)";
  if (dynamic_cast<const CommandOutOfMemoryError*>(&error) != nullptr) return "ran out of memory (--memory-limit)";
  return "";
}

std::string limits_note(const CallLimits& limits) {
  std::string text = "pecheck: --exec asks for positions 0.." +
                     (limits.max_position ? std::to_string(*limits.max_position - 1) + " (--max-position)"
                                          : std::to_string(max_exact_position - 1) + " (2^24 - 1; --max-position sets the model's length)");
  text += limits.max_dim ? ", widths up to " + std::to_string(*limits.max_dim) + " (--dim)" : std::string();
  if (limits.memory_bytes > 0) text += "; each call may use " + byte_count_text(limits.memory_bytes) + " (--memory-limit)";
  return text + "\n";
}

int run_interruptible(const std::function<int()>& run) {
  // Ctrl-C or SIGTERM: the handlers kill the command's process group at once;
  // the exception unwinds through every temporary directory and the
  // persistent process, then pecheck dies of the same signal (128 + N).
  install_interrupt_handlers();
  int signal = 0;
  try {
    return run();
  } catch (const Interrupted& e) {
    signal = e.signal();
  }
  std::cerr << "pecheck: interrupted by signal " << signal << " (" << ::strsignal(signal)
            << "): the command was stopped and its temporary directories removed\n";
  die_of_signal(signal);
}

}  // namespace pecheck::reports
