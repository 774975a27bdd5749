#include "pecheck/reports/exec_validation.hpp"

#include "exec_call_guard.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <iostream>
#include <memory>
#include <mutex>
#include <optional>
#include <sstream>
#include <cstring>

#include <nlohmann/json.hpp>

#include "pecheck/number_text.hpp"
#include "pecheck/external_subjects.hpp"
#include "pecheck/properties/registry.hpp"
#include "pecheck/count_text.hpp"
#include "pecheck/interrupts.hpp"
#include "pecheck/memory_limit.hpp"
#include "pecheck/one_line_text.hpp"

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

namespace {

std::vector<const properties::Check*> selected_checks(const ExecOptions& options) {
  std::vector<const properties::Check*> checks;
  for (const std::string& id : options.checks) {
    const properties::Check* check = properties::find_check(id);
    if (check == nullptr) throw ConventionError("--check '" + id + "': unknown check (see pecheck check --list)");
    checks.push_back(check);
  }
  if (!checks.empty()) return checks;
  for (const properties::Check& check : properties::all_checks()) {
    if (check.family == properties::Family::encoding_bounds || check.family == properties::Family::conformance) {
      checks.push_back(&check);
    }
  }
  return checks;
}

struct ExecRun {
  const properties::Check* check;
  properties::Outcome outcome;
  std::vector<std::string> failing_calls;  // the command lines of the shrunk case
};

// Runs the shrunk case again alone, recording the calls it makes. A case
// generated inside the property replays its shrink steps by running the
// body again, so the last call recorded is the smallest failing one.
std::vector<std::string> replay_calls(const properties::Check& check, CommandSubjectOptions subject_options,
                                      properties::RunConfig config, const std::string& reproduce) {
  auto log = std::make_shared<std::vector<std::string>>();
  subject_options.call_log = log;
  config.reproduce = reproduce;
  const std::unique_ptr<Subject> recording = make_command_subject(subject_options);
  properties::run_check(check, *recording, config);
  return *log;
}

void print_text(const ExecRun& run) {
  const properties::Outcome& o = run.outcome;
  std::cout << run.check->id << ": " << properties::to_string(o.verdict) << " (" << count_of(o.cases, "case") << ")\n"
            << "  claim: " << run.check->claim << '\n';
  if (!o.message.empty()) std::cout << "  " << o.message << '\n';
  if (o.verdict == properties::Verdict::failed) {
    for (const auto& [name, value] : o.counterexample) std::cout << "  counterexample " << name << " = " << value << '\n';
    if (!run.failing_calls.empty()) std::cout << "  smallest failing call: " << run.failing_calls.back() << '\n';
    if (!o.reproduce_command.empty()) std::cout << "  reproduce: " << o.reproduce_command << '\n';
  }
}

nlohmann::json to_json(const ExecRun& run) {
  const properties::Outcome& o = run.outcome;
  nlohmann::json out = {{"check", run.check->id},
                        {"verdict", std::string(properties::to_string(o.verdict))},
                        {"cases", o.cases},
                        {"message", o.message},
                        {"failing_calls", run.failing_calls},
                        {"reproduce", o.reproduce_command}};
  nlohmann::json counterexample = nlohmann::json::array();
  for (const auto& [name, value] : o.counterexample) counterexample.push_back({{"name", name}, {"value", value}});
  out["counterexample"] = counterexample;
  return out;
}

// The options after --check that shape a run, as `validate FILE`'s reproduce
// line gives them: the formats the command is asked for, the seed (always:
// the default may change), the case count, --quick and the timeout when not
// the default. RC_PARAMS's reproduce string replays the shrunk case itself.
std::string run_options(const ExecOptions& options, std::uint64_t seed) {
  const ExecOptions defaults;
  std::string text;
  if (options.protocol != defaults.protocol) text += " --exec-protocol " + options.protocol;
  for (const std::string& dtype : options.dtypes) text += " --exec-dtype " + dtype;
  text += " --seed " + hex64(seed);
  if (options.cases != defaults.cases) text += " --cases " + std::to_string(options.cases);
  if (options.quick) text += " --quick";
  if (options.timeout_seconds != defaults.timeout_seconds) text += " --timeout " + round_trip(options.timeout_seconds);
  return text;
}

// The seed the cases came from, when RC_PARAMS overrode the run's: the first
// outcome RapidCheck gave a seed.
std::optional<std::uint64_t> overriding_seed(const std::vector<ExecRun>& runs, std::uint64_t seed) {
  for (const ExecRun& run : runs) {
    if (run.outcome.seed) {
      if (*run.outcome.seed != seed) return run.outcome.seed;
      return std::nullopt;
    }
  }
  return std::nullopt;
}

}  // namespace

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

namespace {

// One line per check on stderr, terminal or not: a CI log shows where a long
// run is, and stdout keeps only the results.
void print_progress(std::size_t done, std::size_t total, const ExecRun& run, double seconds) {
  std::ostringstream line;
  line.precision(3);
  line << "pecheck: [" << done << "/" << total << "] " << run.check->id << ": "
       << properties::to_string(run.outcome.verdict) << " (" << count_of(run.outcome.cases, "case") << ", " << seconds
       << " s)\n";
  std::cerr << line.str() << std::flush;
}

int run_exec(const ExecOptions& options, const std::optional<Convention>& given, bool json) {
  require_exec_template(options);
  require_exec_temporary_directory();
  CommandSubjectOptions subject_options = command_subject_options(options);
  if (options.dim && given) check_dim(*given, *options.dim);
  // The first call is small, and finds the convention when none was given
  // (any convention serves to ask: the command is told rows, width and offset).
  subject_options.convention = given.value_or(presets().front());
  std::unique_ptr<Subject> command = make_command_subject(subject_options);
  std::optional<Convention> convention;
  {
    const CallGuard first(*command);
    try {
      convention = first_call(first, given, subject_options);
    } catch (const CommandFailedError&) {
      std::cerr << "pecheck: " << first.stop_message().value_or("--exec: the first call failed\n");
      return exit_broken_command;
    } catch (const SubjectError& e) {
      // It ran but wrote what is not the table asked for (a wrong shape, a
      // wrong format): a failure the checks report, unless the convention
      // was to be found from it.
      if (!given) {
        throw ConventionError(std::string("--exec: the convention could not be detected from the first call: ") +
                              e.what() + "; give --convention NAME");
      }
      convention = given;
    }
  }
  std::cerr << limits_note(subject_options.limits) << "pecheck: call 1: the first call, from position 0, in "
            << format_of(subject_options.formats.front()).name << ": done\n"
            << std::flush;
  if (!given) {
    std::cerr << "pecheck: --exec: the command's convention, detected from its first call: " << convention->name
              << " (--convention NAME to give it)\n";
    subject_options.convention = *convention;
    command = make_command_subject(subject_options);
  }
  const CallGuard subject(*command, CallGuard::first_call_made);

  properties::RunConfig config;
  if (options.seed_given) config.seed = options.seed;
  config.max_cases = options.cases;
  config.quick = options.quick;
  std::vector<ExecRun> runs;
  int status = 0;
  bool any_not_run = false;  // a check on no cases: the command may never have been called
  const std::vector<const properties::Check*> selected = selected_checks(options);
  for (const properties::Check* check : selected) {
    const auto started = std::chrono::steady_clock::now();
    ExecRun run{check, properties::run_check(*check, subject, config), {}};
    // An interrupt reaches a property as an exception it reports as a
    // failure; it ends the run here instead.
    throw_if_interrupted();
    if (const std::optional<std::string> stop = subject.stop_message()) {
      std::cerr << "pecheck: " << *stop;
      return exit_broken_command;
    }
    any_not_run = any_not_run || run.outcome.verdict == properties::Verdict::not_run;
    if (run.outcome.verdict == properties::Verdict::failed) {
      status = 1;
      if (!run.outcome.reproduce.empty()) {
        run.failing_calls = replay_calls(*check, subject_options, config, run.outcome.reproduce);
        run.outcome.reproduce_command = "RC_PARAMS=\"" + run.outcome.reproduce + "\" pecheck validate --exec " +
                                        shell_quote(options.command) + " --convention " + convention->name +
                                        " --check " + check->id + run_options(options, config.seed);
      }
    }
    print_progress(runs.size() + 1, selected.size(), run,
                   std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count());
    if (!json) print_text(run);
    runs.push_back(std::move(run));
  }
  // Nothing failed but something was not tried: no conformance was shown.
  const std::string verdict = status != 0 ? "deviates" : any_not_run ? "not run" : "conforms";
  if (any_not_run) status = 1;
  // RC_PARAMS's seed= wins over --seed (properties::params_for), so the
  // printed --seed would not be the one the cases came from.
  const std::optional<std::uint64_t> overridden = overriding_seed(runs, config.seed);
  const std::string override_note =
      overridden ? "RC_PARAMS sets the seed: the cases came from seed " + hex64(*overridden) + ", not --seed " +
                       hex64(config.seed)
                 : "";
  if (json) {
    nlohmann::json out = {{"command", options.command},
                          {"convention", convention->name},
                          {"seed", hex64(config.seed)},
                          {"verdict", verdict}};
    if (overridden) {
      out["rc_params_seed"] = hex64(*overridden);
      out["note"] = override_note;
    }
    nlohmann::json checks = nlohmann::json::array();
    for (const ExecRun& run : runs) checks.push_back(to_json(run));
    out["checks"] = checks;
    std::cout << out.dump(2) << '\n';
  } else {
    if (overridden) std::cout << override_note << '\n';
    std::cout << verdict << ": "
              << count_of(static_cast<std::int64_t>(runs.size()), "check") << " on `" << options.command << "` (seed "
              << hex64(config.seed) << ")\n";
  }
  return status;
}

}  // namespace

int validate_exec(const ExecOptions& options, const std::optional<Convention>& convention, bool json) {
  return run_interruptible([&] { return run_exec(options, convention, json); });
}

}  // namespace pecheck::reports
