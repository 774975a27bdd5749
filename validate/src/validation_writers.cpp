// The one text writer and the one JSON writer of a validation: the frame
// every kind shares, with the kind's own stages from sections.hpp.
#include "pecheck/validate/validation_writers.hpp"

#include <sstream>
#include <variant>

#include "json_values.hpp"
#include "pecheck/text_wrap.hpp"
#include "sections.hpp"

namespace pecheck::validate {

namespace {

using nlohmann::json;

// Text lines stay under 100 characters (issue 29: lines of 400 characters).
constexpr std::size_t text_width = 99;

json comparison_json(const Comparison& c) {
  const accuracy::Measurement& m = c.measurement;
  return {{"target", c.target},
          {"conforms", c.conforms},
          {"entries", m.entries},
          {"beyond_budget", c.beyond_budget},
          {"budget_ulp", json_number(m.budget_ulp)},
          {"max_ulp", json_number(m.max_ulp)},
          {"rms_ulp", json_number(m.rms_ulp)},
          {"max_abs_error", json_number(m.max_abs_error)},
          {"mismatches", m.mismatches},
          {"worst", m.entries > m.mismatches ? worst_json(m.worst, m.max_ulp) : json(nullptr)}};
}

// The text before wrapping: a part's lines are indented under the whole.
std::string unwrapped_text(const Validation& v, const std::string& file) {
  std::ostringstream out;
  out.precision(4);
  out << file << ": " << to_string(v.verdict) << '\n';
  std::visit([&](const auto& findings) { subject_text(v, findings, out); }, v.findings);
  for (const std::string& note : v.notes) out << "  note: " << note << '\n';
  std::visit([&](const auto& findings) { comparisons_text(v, findings, out); }, v.findings);
  // A part reads as a validation of its own, indented under this one.
  for (const Validation& part : v.parts) {
    std::istringstream lines(unwrapped_text(part, part.name));
    for (std::string line; std::getline(lines, line);) out << "  " << line << '\n';
  }
  for (const Hazard& hazard : v.hazards) out << "  hazard " << to_string(hazard.kind) << ": " << hazard.evidence << '\n';
  for (const std::string& reason : v.reasons) out << "  " << to_string(v.verdict) << ": " << reason << '\n';
  return out.str();
}

}  // namespace

// Lines under 100 characters: a CI log or a terminal shows them whole.
std::string validation_text(const Validation& v, const std::string& file) {
  return wrap_lines(unwrapped_text(v, file), text_width);
}

json validation_document(const Validation& v, const std::string& file) {
  json out;
  out["file"] = file;
  out["kind"] = std::string(to_string(v.kind));
  out["verdict"] = std::string(to_string(v.verdict));
  json comparisons = json::array();
  for (const Comparison& c : v.comparisons) {
    if (c.measurement.entries > 0) comparisons.push_back(comparison_json(c));
  }
  out["comparisons"] = comparisons;
  std::visit([&](const auto& findings) { subject_json(v, findings, out); }, v.findings);
  out["hazards"] = hazards_json(v.hazards);
  out["reasons"] = v.reasons;
  out["notes"] = v.notes;
  return out;
}

std::string validation_json(const Validation& v, const std::string& file) {
  return validation_document(v, file).dump(2) + "\n";
}

}  // namespace pecheck::validate
