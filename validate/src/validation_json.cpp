#include <cmath>

#include <nlohmann/json.hpp>

#include "pecheck/accuracy/angle_allowance.hpp"
#include "json_values.hpp"
#include "pecheck/validate/validation_report.hpp"

namespace pecheck::validate {

namespace {

using nlohmann::json;

json number(double x) { return json_number(x); }

json input_json(const accuracy::WorstInput& input, double ulps) {
  return {{"row", input.row},
          {"position", input.position},
          {"column", input.column},
          {"value", number(input.value)},
          {"value_hex", input.value_hex},
          {"exact", input.exact_text},
          {"ulp", number(ulps)},
          {"abs_error", number(input.abs_error)}};
}

json rule_json(const FrequencyRule& rule) {
  if (rule.kind == FrequencyRuleKind::paper) return {{"kind", "paper"}, {"base", rule.base}};
  return {{"kind", "timescale"}, {"min_timescale", rule.min_timescale}, {"max_timescale", rule.max_timescale}};
}

}  // namespace

std::string validation_json(const ValidationResult& result, const std::string& file) {
  const Detection& detection = result.detection;
  json out;
  out["file"] = file;
  out["verdict"] = std::string(to_string(result.verdict));
  out["rows"] = result.rows;
  out["dim"] = result.dim;
  out["dtype"] = std::string(format_of(result.stored_format).name);
  out["compared_as"] = std::string(format_of(result.compared_format).name);
  out["format_note"] = result.format_note.empty() ? json(nullptr) : json(result.format_note);
  out["convention"] = detection.preset ? json(*detection.preset) : json(nullptr);
  out["also_matches"] = detection.also_matches;
  if (detection.convention) {
    out["convention_description"] = describe(*detection.convention);
    out["layout"] = std::string(to_string(detection.convention->layout));
    out["frequency_rule"] = rule_json(detection.convention->frequency);
    out["odd_dim"] = std::string(to_string(detection.convention->odd_dim));
  } else {
    for (const char* key : {"convention_description", "layout", "frequency_rule", "odd_dim"}) out[key] = nullptr;
  }
  out["zero_rows"] = detection.zero_rows;
  out["row_offset"] = detection.convention ? json(detection.row_offset) : json(nullptr);
  // The position file row 0 holds, and +1 or -1 per row (-1: a relative encoding).
  out["first_position"] =
      detection.convention ? json(position_of_row(*detection.convention, detection.row_offset)) : json(nullptr);
  out["position_step"] = detection.convention ? json(detection.convention->position_step) : json(nullptr);
  out["offset_ambiguous"] = detection.offset_ambiguous;
  out["rival_offset"] = detection.rival_offset ? json(*detection.rival_offset) : json(nullptr);
  out["identical_successive_rows"] = detection.identical_pairs;
  out["sinusoidal"] = detection.sinusoidal;
  out["pair_fraction"] = detection.pair_fraction;
  out["compared"] = result.compared;
  const accuracy::Measurement& m = result.measurement;
  out["entries_compared"] = m.entries;
  out["rows_compared"] = result.rows_compared;
  out["sampled"] = result.sampled;
  out["reference_escalations"] = result.reference_escalations;
  out["budget"] = {{"max_ulp", result.ulp_criterion ? json(m.budget_ulp) : json(nullptr)},
                   {"source", m.budget_source},
                   {"max_abs_error", result.max_abs_error_budget ? json(*result.max_abs_error_budget) : json(nullptr)},
                   {"float64_angle_bound", result.angle_allowance
                                               ? json(std::string(accuracy::float64_angle_allowance_source))
                                               : json(nullptr)}};
  if (result.compared) {
    out["max_ulp"] = number(m.max_ulp);
    out["rms_ulp"] = number(m.rms_ulp);
    out["max_abs_error"] = number(m.max_abs_error);
    out["mismatches"] = m.mismatches;
    out["worst"] = m.entries > m.mismatches ? input_json(m.worst, m.max_ulp) : json(nullptr);
    if (m.abs_bound) {
      const accuracy::AbsoluteBoundCheck& check = *m.abs_bound;
      json worst = nullptr;
      if (check.beyond_ulp > 0) {
        worst = input_json(check.worst, check.worst_ulp);
        worst["bound"] = number(check.worst_bound);
      }
      out["angle_bound"] = {{"entries_beyond_ulp", check.beyond_ulp},
                            {"entries_beyond_bound", check.beyond_bound},
                            {"worst_ratio", check.beyond_ulp > 0 ? number(check.worst_ratio) : json(nullptr)},
                            {"worst", worst}};
    } else {
      out["angle_bound"] = nullptr;
    }
    out["criterion"] = {{"ulp", result.ulp_criterion},
                        {"float64_angle_bound", result.angle_allowance},
                        {"abs_error", result.max_abs_error_budget.has_value()},
                        {"text", criterion_text(result)}};
  } else {
    for (const char* key : {"max_ulp", "rms_ulp", "max_abs_error", "mismatches", "worst", "angle_bound", "criterion"}) {
      out[key] = nullptr;
    }
  }
  out["hazards"] = hazards_json(result.hazards);
  out["reasons"] = result.reasons;
  out["notes"] = detection.notes;
  return out.dump(2) + "\n";
}

}  // namespace pecheck::validate
