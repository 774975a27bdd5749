// Producing a Report: run the checks on a subject, compute the figures'
// data, and put the model together. `pecheck report` runs every registered
// check on the built-in fast implementation; `pecheck validate` passes its
// own subject and checks, and gets the same report for them.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "pecheck/properties/check.hpp"
#include "pecheck/reports/figure_data.hpp"
#include "pecheck/reports/report_model.hpp"
#include "pecheck/subject.hpp"

namespace pecheck::reports {

// Called before each step: what is running, and how far along the run is.
using Progress = std::function<void(std::string_view step, std::size_t done, std::size_t total)>;

struct ReportSettings {
  RunMode mode = RunMode::standard;
  std::uint64_t seed = properties::RunConfig{}.seed;
  std::string command = "pecheck report";
  std::string reproduce;             // a command line that writes the same report
  bool figures = true;               // the figures, the accuracy sweep and the findings
};

// The RunConfig of a mode: case counts and sweep sizes, the seed.
properties::RunConfig run_config(const ReportSettings& settings);

// Runs each check on the subject (properties::run_check: a subject's
// exception becomes a failed Outcome) and times it.
std::vector<CheckResult> run_checks(const Subject& subject, const std::vector<const properties::Check*>& checks,
                                    const properties::RunConfig& config, const Progress& progress = {});

// The report for outcomes already run: environment, configuration, the
// accuracy tables and figures (computed here from the subject and the
// reference) and the findings (from the outcomes and the figures' numbers).
Report build_report(const Subject& subject, std::vector<CheckResult> checks, const ReportSettings& settings,
                    const Progress& progress = {});

// Every registered check, in the registry's order.
std::vector<const properties::Check*> registered_checks();

// The machine and build this process runs on.
Environment current_environment();

}  // namespace pecheck::reports
