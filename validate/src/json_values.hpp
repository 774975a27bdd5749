// Pieces of validate's JSON that every kind's document uses.
#pragma once

#include <cmath>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "pecheck/accuracy/measurement.hpp"
#include "pecheck/validate/validation.hpp"

namespace pecheck::validate {

// JSON has no infinity or NaN: a non-finite statistic is written as the
// string "NaN", "Infinity" or "-Infinity", as in report.json (its schema's "real").
inline nlohmann::json json_number(double x) {
  if (std::isfinite(x)) return x;
  if (std::isnan(x)) return "NaN";
  return x > 0 ? "Infinity" : "-Infinity";
}

// [{kind, evidence}].
inline nlohmann::json hazards_json(const std::vector<Hazard>& hazards) {
  nlohmann::json out = nlohmann::json::array();
  for (const Hazard& hazard : hazards) {
    out.push_back({{"kind", std::string(to_string(hazard.kind))}, {"evidence", hazard.evidence}});
  }
  return out;
}

// A worst entry with its ULP error: where it is, what it holds, what it should.
inline nlohmann::json worst_json(const accuracy::WorstInput& input, double ulps) {
  return {{"row", input.row},
          {"position", input.position},
          {"column", input.column},
          {"value", json_number(input.value)},
          {"value_hex", input.value_hex},
          {"exact", input.exact_text},
          {"ulp", json_number(ulps)},
          {"abs_error", json_number(input.abs_error)}};
}

}  // namespace pecheck::validate
