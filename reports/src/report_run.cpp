#include "pecheck/reports/report_run.hpp"

#include <sys/utsname.h>

#include <chrono>
#include <thread>

#include "pecheck/properties/accuracy_by_position.hpp"
#include "pecheck/properties/check_ids.hpp"
#include "pecheck/properties/faulty_subjects.hpp"
#include "pecheck/properties/registry.hpp"
#include "pecheck/reports/findings.hpp"

#ifndef PECHECK_VERSION
#define PECHECK_VERSION "unknown"
#endif
#ifndef PECHECK_BUILD_TYPE
#define PECHECK_BUILD_TYPE "unknown"
#endif

namespace pecheck::reports {

properties::RunConfig run_config(const ReportSettings& settings) {
  properties::RunConfig config;
  config.seed = settings.seed;
  config.quick = settings.mode == RunMode::quick;
  config.full = settings.mode == RunMode::full;
  // RapidCheck's default is 100 cases; --quick keeps the default report's
  // claims and looks less hard, --full looks ten times harder.
  config.max_cases = settings.mode == RunMode::quick ? 25 : settings.mode == RunMode::full ? 1000 : 100;
  return config;
}

std::vector<CheckResult> run_checks(const Subject& subject, const std::vector<const properties::Check*>& checks,
                                    const properties::RunConfig& config, const Progress& progress) {
  std::vector<CheckResult> results;
  for (std::size_t i = 0; i < checks.size(); ++i) {
    const properties::Check& check = *checks[i];
    if (progress) progress(check.id, i, checks.size());
    const auto start = std::chrono::steady_clock::now();
    CheckResult result;
    result.id = check.id;
    result.family = check.family;
    result.kind = check.kind;
    result.role = check.role;
    result.catches = properties::faults_caught_by(check.id);
    // A check outside the registry (the training family's, read from
    // pecheck-training's JSON) is not in the fault matrix's inversion: its own list.
    if (result.catches.empty()) result.catches.assign(check.catches.begin(), check.catches.end());
    result.claim = check.claim;
    result.source = check.source;
    result.outcome = properties::run_check(check, subject, config);
    result.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    results.push_back(std::move(result));
  }
  return results;
}

std::vector<const properties::Check*> registered_checks() {
  std::vector<const properties::Check*> checks;
  for (const properties::Check& check : properties::all_checks()) checks.push_back(&check);
  return checks;
}

Environment current_environment() {
  Environment environment;
  environment.pecheck_version = PECHECK_VERSION;
#if defined(__clang__)
  environment.compiler = "Clang " __clang_version__;
#elif defined(__GNUC__)
  environment.compiler = "GCC " __VERSION__;
#else
  environment.compiler = "unknown";
#endif
  environment.build_type = PECHECK_BUILD_TYPE;
  utsname name{};
  if (::uname(&name) == 0) {
    environment.platform = std::string(name.sysname) + " " + name.release + " " + name.machine;
  }
  environment.hardware_threads = static_cast<int>(std::thread::hardware_concurrency());
  return environment;
}

Report build_report(const Subject& subject, std::vector<CheckResult> checks, const ReportSettings& settings,
                    const Progress& progress) {
  Report report;
  report.environment = current_environment();
  report.configuration.subject = subject.name();
  report.configuration.command = settings.command;
  report.configuration.reproduce = settings.reproduce;
  report.configuration.seed = settings.seed;
  report.configuration.mode = settings.mode;
  report.configuration.max_cases = run_config(settings).max_cases;
  report.checks = std::move(checks);
  if (settings.figures) {
    if (progress) progress("figures: the accuracy sweep against the reference", 0, 1);
    // The accuracy table and the figures render these checks' Outcomes: run
    // them among the report's checks when the caller did not, so their
    // verdicts count like any other.
    for (std::string_view id : {properties::accuracy_by_position_id, properties::check_ids::energy_ratio,
                                properties::check_ids::constant_columns_exact}) {
      if (find_check_result(report, id) != nullptr) continue;
      const properties::Check* check = properties::find_check(id);
      for (CheckResult& result : run_checks(subject, {check}, run_config(settings))) {
        report.checks.push_back(std::move(result));
      }
    }
    const CheckResult* accuracy = find_check_result(report, properties::accuracy_by_position_id);
    FigureData data = compute_figure_data(
        subject, {settings.mode, settings.seed, accuracy != nullptr ? &accuracy->outcome : nullptr});
    add_check_curves(data, report.checks);
    report.accuracy = accuracy_tables(data, report.checks);
    report.figures = build_figures(data, report.checks);
    report.findings = write_findings(report, data);
    report.notes = data.notes;
  }
  return report;
}

}  // namespace pecheck::reports
