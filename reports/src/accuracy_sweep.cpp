#include <algorithm>
#include <string>

#include "pecheck/count_text.hpp"
#include "pecheck/properties/accuracy_by_position.hpp"
#include "pecheck/properties/registry.hpp"
#include "sweeps.hpp"
#include "text_format.hpp"

namespace pecheck::reports::detail {

// The accuracy figure and table render conformance/accuracy-by-position's
// Outcome: reports measure nothing themselves.
void sweep_accuracy(const Subject& subject, const FigureSettings& settings, const SweepSizes& sizes, FigureData& data) {
  properties::Outcome ran;
  const properties::Outcome* outcome = settings.accuracy;
  if (outcome == nullptr) {
    properties::RunConfig config;
    config.quick = settings.mode == RunMode::quick;
    config.full = settings.mode == RunMode::full;
    config.seed = settings.seed;
    ran = properties::run_check(properties::accuracy_by_position_check(), subject, config);
    outcome = &ran;
  }
  data.ulp.rows_per_block = sizes.rows_per_block;
  if (outcome->verdict == properties::Verdict::not_applicable) {
    data.ulp.skipped.push_back(outcome->message);
    return;
  }
  if (outcome->measurements.empty() && !outcome->message.empty()) data.ulp.skipped.push_back(outcome->message);
  for (const accuracy::Measurement& m : outcome->measurements) {
    if (!m.profile) continue;
    data.ulp.dim = m.dim;
    UlpCurve curve;
    curve.convention = m.convention;
    curve.format = m.format;
    curve.positions = m.profile->positions;
    curve.max_ulp = m.profile->max_ulp;
    curve.max_abs_error = m.profile->max_abs_error;
    curve.measurement = m;
    data.ulp.curves.push_back(std::move(curve));
  }
  // What the check could not measure: the formats the subject does not offer.
  std::vector<std::string> conventions;
  for (const UlpCurve& curve : data.ulp.curves) {
    if (std::find(conventions.begin(), conventions.end(), curve.convention) == conventions.end()) {
      conventions.push_back(curve.convention);
    }
  }
  for (const std::string& convention : conventions) {
    for (FormatId format : {FormatId::float64, FormatId::float32, FormatId::float16, FormatId::bfloat16}) {
      if (!offers_format(subject, format)) {
        data.ulp.skipped.push_back(convention + "/" + std::string(format_of(format).name) +
                                   ": the subject does not offer the format");
      }
    }
  }
  for (const properties::Series& model : outcome->series) {
    if (!model.key || model.key->quantity != properties::Quantity::float32_angle_abs_error) continue;
    AngleErrorCurve angles;
    angles.positions = model.x;
    angles.float32_angles = model.y;
    for (const UlpCurve& curve : data.ulp.curves) {
      if (curve.format == FormatId::float32 && curve.convention == model.key->convention) {
        angles.convention = curve.convention;
        angles.dim = curve.measurement.dim;
        angles.subject = curve.max_abs_error;
      }
    }
    if (angles.subject.size() != angles.positions.size()) angles.subject.clear();  // no float32 from the subject
    data.angles = std::move(angles);
    break;
  }
}

}  // namespace pecheck::reports::detail

namespace pecheck::reports {

std::vector<AccuracyTable> accuracy_tables(const FigureData& data, const std::vector<CheckResult>& checks) {
  const auto accuracy = std::find_if(checks.begin(), checks.end(), [](const CheckResult& check) {
    return check.id == properties::accuracy_by_position_id;
  });
  if (accuracy == checks.end()) return {};
  const properties::Outcome& outcome = accuracy->outcome;
  std::vector<std::string> conventions;
  std::string compared;  // the convention the float32-angle comparison ran on
  for (const accuracy::Measurement& m : outcome.measurements) {
    if (!m.every_convention && std::find(conventions.begin(), conventions.end(), m.convention) == conventions.end()) {
      conventions.push_back(m.convention);
    }
  }
  AccuracyTable table;
  table.title = "Each format against the correctly rounded reference";
  for (const accuracy::Measurement& m : outcome.measurements) {
    if (!m.every_convention) continue;
    AccuracyRow row{count_of(static_cast<std::int64_t>(conventions.size()), "convention"), m.dim,
                    std::string(properties::accuracy_by_position_id), m, std::nullopt};
    for (const properties::Statistic& s : outcome.statistics) {
      if (s.key.quantity == properties::Quantity::float32_angle_max_ulp && s.key.format == m.format) {
        row.float32_angles_max_ulp = s.value;
        compared = s.key.convention;
      }
    }
    table.rows.push_back(std::move(row));
  }
  if (table.rows.empty()) return {};
  std::string names;
  for (const std::string& name : conventions) names += (names.empty() ? "" : ", ") + name;
  table.note = "Each row: one format over " + names + " (" +
               count_of(table.rows.front().measurement.entries, "entry", "entries") +
               ", d = " + std::to_string(data.ulp.dim) + ", " + std::to_string(data.ulp.rows_per_block) +
               " consecutive rows at each sampled position, log-spaced from the first row to the last below 2^24), "
               "held to the budget: a row beyond it fails the run. ULP error is the distance to the exact value in "
               "units of the exact value's binade in the format. The worst input has the largest ULP error; the "
               "nearest case to a zero has the smallest nonzero exact value, where an absolute tolerance says "
               "nothing.";
  if (!compared.empty()) {
    table.note +=
        " Last column, for comparison: the tutorials' float32 angles (p * w and sin/cos in float32, the "
        "result rounded to the format) on the same rows of " +
        compared +
        ". Each convention's own row is "
        "in the details of " +
        std::string(properties::accuracy_by_position_id) + ".";
  }
  return {std::move(table)};
}

}  // namespace pecheck::reports
