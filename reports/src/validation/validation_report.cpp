#include "pecheck/reports/validation_report.hpp"

#include <algorithm>
#include <memory>
#include <optional>
#include <variant>
#include <vector>

#include "pecheck/atomic_file.hpp"
#include "pecheck/number_text.hpp"
#include "pecheck/external_subjects.hpp"
#include "pecheck/properties/check_ids.hpp"
#include "pecheck/rotary_kernel.hpp"
#include "pecheck/reports/report_files.hpp"
#include "pecheck/reports/report_run.hpp"
#include "pecheck/validate/validation_writers.hpp"

namespace pecheck::reports {

namespace {

using validate::Validation;

// What a kind contributes to the report: the rows its checks may ask for,
// the checks, and the names of the two results made from the validation.
struct KindReport {
  std::unique_ptr<Subject> subject;  // nullptr: no report beyond validation.json and .txt
  std::vector<const properties::Check*> checks;
  properties::Family family = properties::Family::conformance;
  std::string comparison_id, diagnosis_id;
  // The faults the diagnosis is proven to name: by the validate tests that
  // make one subject per fault (validate/tests/numpy_faults_test.cpp and
  // numpy_mismatch_test.cpp for tables, rotary_numpy_test.cpp for caches).
  std::vector<std::string> diagnosed;
};

std::vector<const properties::Check*> checks_where(bool (*keep)(const properties::Check&)) {
  std::vector<const properties::Check*> kept;
  for (const properties::Check* check : registered_checks()) {
    if (keep(*check)) kept.push_back(check);
  }
  return kept;
}

KindReport kind_report(const Validation&, const validate::TableFindings& table, const std::string& file,
                       const ValidatedValues& values) {
  KindReport kind;
  kind.comparison_id = "conformance/file-comparison";
  kind.diagnosis_id = "conformance/file-diagnosis";
  kind.diagnosed = {"position-precision", "angle-precision", "out-of-range", "non-finite", "convention-mismatch"};
  // Only a settled convention names the rows the checks may ask the file for.
  if (!table.detection.convention || !table.compared || values.table == nullptr) return kind;
  kind.subject = make_table_file_subject(file, *values.table, *table.detection.convention, table.detection.row_offset);
  kind.checks = checks_where([](const properties::Check& check) {
    return check.family == properties::Family::encoding_bounds || check.family == properties::Family::conformance;
  });
  return kind;
}

KindReport kind_report(const Validation& v, const validate::RotaryFindings& rotary, const std::string& file,
                       const ValidatedValues& values) {
  KindReport kind;
  kind.family = properties::Family::rotary;
  kind.comparison_id = "rotary/cache-comparison";
  kind.diagnosis_id = "rotary/cache-diagnosis";
  kind.diagnosed = {"position-precision", "angle-precision", "inv-freq-precision", "wrong-base",
                    "wrong-scaling",      "cos-sin-swapped", "attention-factor"};
  if (values.table == nullptr || values.sin == nullptr) return kind;
  kind.subject = make_rotary_file_subject(file, *values.table, *values.sin,
                                          rotary.compared_convention.value_or(RotaryConvention{}),
                                          rotary.detection.first_position, rotary_checks_model(v, values.model));
  // The rotary checks need a convention to ask the files for: none when nothing fits.
  if (rotary.compared_convention && rotary.detection.rotary) {
    kind.checks = checks_where([](const properties::Check& check) {
      return check.id == properties::check_ids::rotary_relative_position ||
             check.id == properties::check_ids::rotary_pair_norm;
    });
  }
  return kind;
}

// An input layer's recovered encoding is an estimate bounded only in absolute
// error: the checks' ULP budgets do not apply to it (a correct bfloat16 layer
// failed 5 of 14), so its report is validation.json and .txt alone.
KindReport kind_report(const Validation&, const validate::InputLayerFindings&, const std::string&,
                       const ValidatedValues&) {
  return {};
}

// A rotated output is a kernel holding one rotation: the checks on rotated
// outputs (rotary/rotated-pair-norm, rotary/rotated-relative-position) ask it
// for its own rows at the kernel's positions (POS plus the offset read), under
// the convention and pairing the validation settled.
KindReport kind_report(const Validation&, const validate::RotatedFindings& rotated, const std::string& file,
                       const ValidatedValues& values) {
  KindReport kind;
  kind.family = properties::Family::rotary;
  kind.comparison_id = "rotary/rotated-comparison";
  kind.diagnosis_id = "rotary/rotated-diagnosis";
  kind.diagnosed = {"position-precision", "angle-precision", "inv-freq-precision", "cache-precision",
                    "frequency-accumulation", "fast-trig", "layout-mismatch", "wrong-base", "wrong-scaling",
                    "direction", "attention-factor", "partial-width", "position-offset"};
  if (!values.rotated_input || !values.rotated_output || !rotated.convention || rotated.rotary_width == 0) {
    return kind;
  }
  HeldRotation held;
  held.convention = *rotated.convention;
  held.convention.layout = rotated.layout;
  held.input = *values.rotated_input;
  held.positions = values.row_position;
  for (std::int64_t& p : held.positions) p += rotated.position_offset;
  held.mrope_positions = values.mrope_position;  // ids that differ are compared as POS gives them (no offset read)
  held.format = rotated.format;
  kind.subject = make_rotated_file_subject(file, std::move(held), *values.rotated_output);
  kind.checks = checks_where([](const properties::Check& check) {
    return check.id == properties::check_ids::rotated_pair_norm ||
           check.id == properties::check_ids::rotated_relative_position;
  });
  return kind;
}

// A result made from the validation, not run by the check registry: its
// header as a registered measurement's would read.
CheckResult validation_result(std::string id, properties::Family family, std::string claim, std::string source,
                              std::vector<std::string> catches, const std::string& name) {
  CheckResult check;
  check.id = std::move(id);
  check.family = family;
  check.kind = properties::CheckKind::measurement;
  check.claim = std::move(claim);
  check.source = std::move(source);
  check.catches = std::move(catches);
  check.outcome.check_id = check.id;
  check.outcome.subject = name;
  return check;
}

CheckResult comparison_result(const Validation& v, const KindReport& kind, const std::string& name) {
  CheckResult check = validation_result(
      kind.comparison_id, kind.family,
      "every entry is within its budget of the exact values or of the named computation model",
      "pecheck validate (validate/src/table_validation.cpp, rotary_validation.cpp)", {"angle-precision"}, name);
  properties::Outcome& outcome = check.outcome;
  const bool conforms =
      std::any_of(v.comparisons.begin(), v.comparisons.end(), [](const validate::Comparison& c) { return c.conforms; });
  outcome.verdict = conforms ? properties::Verdict::held : properties::Verdict::failed;
  for (const validate::Comparison& c : v.comparisons) {
    if (c.measurement.entries == 0) continue;
    accuracy::Measurement m = c.measurement;
    m.convention = c.target;
    outcome.measurements.push_back(m);
    outcome.cases += m.entries;
    if (!outcome.message.empty()) outcome.message.append("; ");
    outcome.message.append("against ").append(c.target).append(": ");
    outcome.message.append(std::to_string(c.beyond_budget)).append(" of ").append(std::to_string(m.entries));
    outcome.message.append(" entries beyond ").append(round_trip(m.budget_ulp)).append(" ULP");
  }
  if (outcome.measurements.empty()) {
    outcome.verdict = properties::Verdict::failed;
    outcome.message = "not compared: ";
    outcome.message.append(v.reasons.empty() ? std::string("no convention") : v.reasons.front());
  }
  return check;
}

CheckResult diagnosis_result(const Validation& v, const KindReport& kind, const std::string& name) {
  CheckResult check = validation_result(
      kind.diagnosis_id, kind.family, "the subject shows none of the numeric faults of CONVENTIONS.md pecheck diagnoses",
      "pecheck validate (validate/src/faults.cpp, rotary_diagnosis.cpp); CONVENTIONS.md", kind.diagnosed, name);
  properties::Outcome& outcome = check.outcome;
  outcome.cases = static_cast<std::int64_t>(v.hazards.size());
  outcome.verdict = v.hazards.empty() ? properties::Verdict::held : properties::Verdict::failed;
  for (const validate::Hazard& h : v.hazards) {
    if (!outcome.message.empty()) outcome.message.append(" ");
    outcome.message.append(validate::to_string(h.kind)).append(": ").append(h.evidence);
  }
  if (outcome.message.empty()) outcome.message = "no fault diagnosed";
  return check;
}

// The file's error against position, from the accuracy check's Outcome on
// the file's rows (conformance/accuracy-by-position: its blocks' largest
// ULP error), or from the comparison's measurements where the validation
// kept a profile (a rotated output: one series per target compared): where a
// position-dependent fault shows as a rising line.
std::optional<Figure> error_by_position_figure(const std::vector<CheckResult>& checks, const std::string& file,
                                               const std::string& comparison_id) {
  auto found = std::find_if(checks.begin(), checks.end(), [](const CheckResult& c) {
    return c.id == properties::check_ids::accuracy_by_position;
  });
  const bool by_target = found == checks.end();
  if (by_target) {
    found = std::find_if(checks.begin(), checks.end(), [&](const CheckResult& c) { return c.id == comparison_id; });
  }
  if (found == checks.end()) return std::nullopt;
  Figure figure;
  figure.id = "error-by-position";
  figure.title = "ULP error against position in " + file;
  Panel panel;
  panel.x = {"position", "", AxisScale::log, std::nullopt, std::nullopt};
  panel.y = {"largest error in the block", "ULP", AxisScale::log, std::nullopt, std::nullopt};
  double budget = 0.0, first = 0.0, last = 0.0, worst = 0.0;
  for (const accuracy::Measurement& m : found->outcome.measurements) {
    if (!m.profile || m.profile->positions.empty()) continue;
    Series series{by_target ? m.convention + " (" + std::string(format_of(m.format).name) + ")"
                            : std::string(format_of(m.format).name),
                  SeriesStyle::line_and_points, {}, {}, false};
    for (std::size_t k = 0; k < m.profile->positions.size(); ++k) {
      // Position 0 and errors of 0 have no place on a log axis: left out, not moved.
      const double x = m.profile->positions[k], y = m.profile->max_ulp[k];
      if (x <= 0.0 || !(y > 0.0)) continue;
      series.x.push_back(x);
      series.y.push_back(y);
    }
    if (series.x.empty()) continue;
    first = first == 0.0 ? series.x.front() : std::min(first, series.x.front());
    last = std::max(last, series.x.back());
    worst = std::max(worst, m.max_ulp);
    budget = m.budget_ulp;
    panel.series.push_back(std::move(series));
  }
  if (panel.series.empty()) return std::nullopt;
  panel.series.push_back({"budget " + significant(budget, 4) + " ULP", SeriesStyle::line, {first, last}, {budget, budget},
                          true});
  figure.panels.push_back(std::move(panel));
  figure.caption = std::string(by_target ? "The largest ULP error of every entry in each block of positions, against "
                                           "each target compared, at the block's first position; "
                                         : "The largest ULP error in each sampled block of the file's rows, at the "
                                           "block's first position; ") +
                   "the dashed line is the budget.";
  figure.numbers = {{"largest error (ULP)", "", worst, significant(worst, 4)},
                    {"budget (ULP)", "", budget, significant(budget, 4)}};
  figure.sources = {by_target ? "the validation's comparison (" + comparison_id + ") of every entry of the file"
                              : std::string("the accuracy check (conformance/accuracy-by-position) on the file's rows")};
  return figure;
}

}  // namespace

// The model's when the cache is within budget of it and not of the exact
// encoding (a correct float32 cache far out, whose float32 angle errs by
// about p ULP(inv_freq)), so that a cache conforming to the model is judged
// by the model's bound (properties/src/rotary_bounds.cpp).
std::optional<ComputationModel> rotary_checks_model(const Validation& v, const std::string& model_name) {
  if (v.comparisons.size() < 2 || v.comparisons[0].conforms || !v.comparisons[1].conforms) return std::nullopt;
  return find_computation_model(model_name);
}

namespace {

ReportSettings validation_settings(const std::string& reproduce) {
  ReportSettings settings;
  settings.mode = RunMode::quick;
  settings.command = "pecheck validate";
  settings.reproduce = reproduce;
  settings.figures = false;  // the figures sweep pecheck's own implementation, not a file
  return settings;
}

std::vector<CheckResult> kind_results(const Validation& v, const KindReport& kind, const std::string& file,
                                      const std::string& reproduce) {
  std::vector<CheckResult> outcomes = {comparison_result(v, kind, file), diagnosis_result(v, kind, file)};
  if (!kind.subject) return outcomes;
  for (CheckResult& check : run_checks(*kind.subject, kind.checks, run_config(validation_settings(reproduce)))) {
    // A failed property replays on the file, not on `pecheck check`'s built-in
    // subjects: the same command with RapidCheck's reproduce string.
    if (!check.outcome.reproduce.empty()) {
      check.outcome.reproduce_command = "RC_PARAMS=\"" + check.outcome.reproduce + "\" " + reproduce;
    }
    outcomes.push_back(std::move(check));
  }
  return outcomes;
}

}  // namespace

std::vector<CheckResult> validation_results(const Validation& v, const std::string& file,
                                            const ValidatedValues& values, const std::string& reproduce) {
  const KindReport kind =
      std::visit([&](const auto& findings) { return kind_report(v, findings, file, values); }, v.findings);
  return kind_results(v, kind, file, reproduce);
}

void write_validation_report(const std::filesystem::path& directory, const Validation& v, const std::string& file,
                             const ValidatedValues& values, const std::string& reproduce) {
  write_file_atomically(directory / "validation.json", validate::validation_json(v, file));
  write_file_atomically(directory / "validation.txt", validate::validation_text(v, file));
  const KindReport kind =
      std::visit([&](const auto& findings) { return kind_report(v, findings, file, values); }, v.findings);
  if (!kind.subject) return;
  const ReportSettings settings = validation_settings(reproduce);
  Report report = build_report(*kind.subject, kind_results(v, kind, file, reproduce), settings);
  report.validation_text = validate::validation_text(v, file);
  if (std::optional<Figure> figure = error_by_position_figure(report.checks, file, kind.comparison_id)) {
    report.figures.push_back(std::move(*figure));
  }
  write_report_files(report, directory);
}

}  // namespace pecheck::reports
