#include "validate_rotary_report.hpp"

#include <algorithm>
#include <optional>
#include <span>

#include "pecheck/atomic_file.hpp"
#include "pecheck/external_subjects.hpp"
#include "pecheck/properties/check_ids.hpp"
#include "pecheck/reports/report_files.hpp"
#include "pecheck/reports/report_run.hpp"

namespace pecheck::tools {

namespace {

std::span<const std::byte> bytes_of(const std::string& text) {
  return {reinterpret_cast<const std::byte*>(text.data()), text.size()};
}

// The faults each validation result is proven to fail on: the diagnosis by
// validate/tests/rotary_numpy_test.cpp (one cache per fault, NumPy and torch),
// the comparison by tools/tests/validate_rotary_report.cmake (float16 angles).
const std::vector<std::string> diagnosed_faults = {"position-precision", "angle-precision", "inv-freq-precision",
                                                   "wrong-base",         "wrong-scaling",   "cos-sin-swapped",
                                                   "attention-factor"};

reports::CheckResult comparison_result(const validate::RotaryValidationResult& result, const std::string& name) {
  reports::CheckResult check;
  check.id = "rotary/cache-comparison";
  check.family = properties::Family::rotary;
  check.kind = properties::CheckKind::measurement;
  check.claim = "every entry of the cache is within its ULP budget of the exact encoding or of the computation model";
  check.source = "pecheck validate (validate/src/rotary_comparison.cpp); CONVENTIONS.md, Rotary encodings";
  check.catches = {"angle-precision"};
  properties::Outcome& outcome = check.outcome;
  outcome.check_id = check.id;
  outcome.subject = name;
  const bool conforms = std::any_of(result.comparisons.begin(), result.comparisons.end(),
                                    [](const validate::RotaryComparison& c) { return c.conforms; });
  outcome.verdict = conforms ? properties::Verdict::held : properties::Verdict::failed;
  for (const validate::RotaryComparison& c : result.comparisons) {
    accuracy::Measurement m = c.measurement;
    m.convention = c.target;
    outcome.measurements.push_back(m);
    outcome.cases += m.entries;
    if (!outcome.message.empty()) outcome.message.append("; ");
    outcome.message.append("against ").append(c.target).append(": ");
    outcome.message.append(std::to_string(c.beyond_budget)).append(" of ").append(std::to_string(m.entries));
    outcome.message.append(" entries beyond ").append(std::to_string(m.budget_ulp)).append(" ULP");
  }
  if (result.comparisons.empty()) {
    outcome.verdict = properties::Verdict::failed;
    outcome.message = "not compared: ";
    outcome.message.append(result.reasons.empty() ? std::string("no convention") : result.reasons.front());
  }
  return check;
}

reports::CheckResult diagnosis_result(const validate::RotaryValidationResult& result, const std::string& name) {
  reports::CheckResult check;
  check.id = "rotary/cache-diagnosis";
  check.family = properties::Family::rotary;
  check.kind = properties::CheckKind::measurement;
  check.claim =
      "the cache shows none of the rotary faults of CONVENTIONS.md (positions, angles or inv_freq in a "
      "narrow format, another base or scaling, cos and sin swapped, the attention factor, the layout, "
      "the row offset, out-of-range or non-finite values)";
  check.source = "pecheck validate (validate/src/rotary_diagnosis.cpp); CONVENTIONS.md, Rotary encodings";
  check.catches = diagnosed_faults;
  properties::Outcome& outcome = check.outcome;
  outcome.check_id = check.id;
  outcome.subject = name;
  outcome.cases = static_cast<std::int64_t>(result.hazards.size());
  outcome.verdict = result.hazards.empty() ? properties::Verdict::held : properties::Verdict::failed;
  for (const validate::RotaryHazard& h : result.hazards) {
    if (!outcome.message.empty()) outcome.message.append(" ");
    outcome.message.append(validate::to_string(h.kind)).append(": ").append(h.evidence);
  }
  if (outcome.message.empty()) outcome.message = "no fault diagnosed";
  return check;
}

}  // namespace

// The computation model the rotary checks hold the cache to: the model's when
// the cache is within budget of it and not of the exact encoding (a correct
// float32 cache far out, whose float32 angle errs by about p ULP(inv_freq)),
// so that a cache conforming to the model is judged by the model's bound
// (properties/src/rotary_bounds.cpp); otherwise the exact encoding's.
std::optional<ComputationModel> rotary_checks_model(const validate::RotaryValidationResult& result,
                                                    const std::string& model_name) {
  if (result.comparisons.size() < 2 || result.comparisons[0].conforms || !result.comparisons[1].conforms) {
    return std::nullopt;
  }
  return find_computation_model(model_name);
}

void write_rotary_report(const std::filesystem::path& dir, const std::string& name, const Table& cos, const Table& sin,
                         const validate::RotaryValidationResult& result, const RotaryConvention& convention,
                         const std::string& model_name, const std::string& reproduce) {
  write_file_atomically(dir / "validation.json", bytes_of(validate::rotary_validation_json(result, name)));
  write_file_atomically(dir / "validation.txt", bytes_of(validate::rotary_validation_text(result, name)));
  const std::unique_ptr<Subject> subject = make_rotary_file_subject(
      name, cos, sin, convention, result.detection.first_position, rotary_checks_model(result, model_name));
  std::vector<reports::CheckResult> outcomes = {comparison_result(result, name), diagnosis_result(result, name)};
  reports::ReportSettings settings;
  settings.mode = reports::RunMode::quick;
  settings.command = "pecheck validate";
  settings.reproduce = reproduce;
  settings.figures = false;  // the figures sweep pecheck's own implementation, not a file
  // The rotary checks need a convention to ask the files for: none when nothing fits.
  if (result.detection.convention && result.detection.rotary) {
    std::vector<const properties::Check*> checks;
    for (const properties::Check* check : reports::registered_checks()) {
      if (check->id == properties::check_ids::rotary_relative_position ||
          check->id == properties::check_ids::rotary_pair_norm) {
        checks.push_back(check);
      }
    }
    for (reports::CheckResult& check : reports::run_checks(*subject, checks, reports::run_config(settings))) {
      outcomes.push_back(std::move(check));
    }
  }
  const reports::Report report = reports::build_report(*subject, std::move(outcomes), settings);
  reports::write_report_files(report, dir);
}

}  // namespace pecheck::tools
