// Pieces of validate's JSON shared by the table and the rotary results.
#pragma once

#include <cmath>
#include <string>

#include <nlohmann/json.hpp>

namespace pecheck::validate {

// JSON has no infinity or NaN: a non-finite statistic is written as the
// string "NaN", "Infinity" or "-Infinity", as in report.json (its schema's "real").
inline nlohmann::json json_number(double x) {
  if (std::isfinite(x)) return x;
  if (std::isnan(x)) return "NaN";
  return x > 0 ? "Infinity" : "-Infinity";
}

// [{kind, evidence}] of any hazard type with a `to_string(kind)`.
template <class Hazards>
nlohmann::json hazards_json(const Hazards& hazards) {
  nlohmann::json out = nlohmann::json::array();
  for (const auto& hazard : hazards) {
    out.push_back({{"kind", std::string(to_string(hazard.kind))}, {"evidence", hazard.evidence}});
  }
  return out;
}

}  // namespace pecheck::validate
