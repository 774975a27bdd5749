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
#include "pecheck/one_line_text.hpp"

namespace pecheck::reports {

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
