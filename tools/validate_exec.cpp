#include "validate_exec.hpp"

#include <chrono>
#include <cmath>
#include <iostream>
#include <memory>

#include <nlohmann/json.hpp>

#include "cli_options.hpp"
#include "pecheck/external_subjects.hpp"
#include "pecheck/properties/registry.hpp"

namespace pecheck::tools {

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
  std::cout << run.check->id << ": " << properties::to_string(o.verdict) << " (" << o.cases << " cases)\n"
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

std::string quoted_for_shell(const std::string& text) { return shell_quote(text); }

}  // namespace

void add_exec_options(CLI::App& command, ExecOptions& options) {
  command.add_option("--exec", options.command,
                     "Check an external command instead of a file: {rows} {dim} {offset} {dtype} {output} are "
                     "replaced (shell-quoted); it must write a .npy table to {output}. Needs --convention NAME");
  command.add_option("--timeout", options.timeout_seconds, "--exec: seconds one call may take")
      ->check(CLI::PositiveNumber)
      ->capture_default_str();
  command.add_option("--exec-dtype", options.dtypes, "--exec: formats the command can write (default float32)")
      ->check(CLI::IsMember({"float64", "float32", "float16", "bfloat16"}));
  command.add_option("--check", options.checks, "--exec: run only these check ids (see pecheck check --list)");
  command.add_option("--cases", options.cases, "--exec: generated cases per property")
      ->check(CLI::PositiveNumber)
      ->capture_default_str();
  command.add_option("--seed", options.seed, "--exec: seed for generated cases (RC_PARAMS overrides)")
      ->each([&options](const std::string&) { options.seed_given = true; });
  command.add_flag("--quick", options.quick, "--exec: smaller conformance sweeps");
}

int validate_exec(const ExecOptions& options, const std::string& convention_name, bool json) {
  if (convention_name == "auto") throw ConventionError("--exec needs --convention NAME: the command's convention");
  CommandSubjectOptions subject_options;
  subject_options.command_template = options.command;
  subject_options.convention = convention_by_name(convention_name);
  subject_options.timeout = std::chrono::milliseconds(static_cast<long long>(std::ceil(options.timeout_seconds * 1000.0)));
  subject_options.formats.clear();
  for (const std::string& dtype : options.dtypes) subject_options.formats.push_back(*parse_format(dtype));
  if (subject_options.formats.empty()) subject_options.formats.push_back(FormatId::float32);
  const std::unique_ptr<Subject> subject = make_command_subject(subject_options);

  properties::RunConfig config;
  if (options.seed_given) config.seed = options.seed;
  config.max_cases = options.cases;
  config.quick = options.quick;
  std::vector<ExecRun> runs;
  int status = 0;
  for (const properties::Check* check : selected_checks(options)) {
    ExecRun run{check, properties::run_check(*check, *subject, config), {}};
    if (run.outcome.verdict == properties::Verdict::failed) {
      status = 1;
      if (!run.outcome.reproduce.empty()) {
        run.failing_calls = replay_calls(*check, subject_options, config, run.outcome.reproduce);
        run.outcome.reproduce_command = "RC_PARAMS=\"" + run.outcome.reproduce + "\" pecheck validate --exec " +
                                        quoted_for_shell(options.command) + " --convention " + convention_name +
                                        " --check " + check->id;
      }
    }
    if (!json) print_text(run);
    runs.push_back(std::move(run));
  }
  if (json) {
    nlohmann::json out = {{"command", options.command},
                          {"convention", convention_name},
                          {"verdict", status == 0 ? "conforms" : "deviates"}};
    nlohmann::json checks = nlohmann::json::array();
    for (const ExecRun& run : runs) checks.push_back(to_json(run));
    out["checks"] = checks;
    std::cout << out.dump(2) << '\n';
  } else {
    std::cout << (status == 0 ? "conforms" : "deviates") << ": " << runs.size() << " checks on `" << options.command
              << "`\n";
  }
  return status;
}

}  // namespace pecheck::tools
