// The text of a rotated-output validation in the one writer's frame
// (validation_writers.cpp: header, subject, notes, comparisons, hazards,
// reasons), with the rotated sections and every rotated hazard, until the
// one writer takes RotatedFindings and the hazard kinds.
#include <sstream>

#include "pecheck/validate/rotated_output.hpp"
#include "rotated_sections.hpp"

namespace pecheck::validate {

std::string rotated_validation_text(const RotatedValidationResult& result, const std::string& file) {
  const Validation& v = result.validation;
  std::ostringstream out;
  out.precision(4);
  out << file << ": " << to_string(v.verdict) << '\n';
  subject_text(v, result.findings, out);
  for (const std::string& note : v.notes) out << "  note: " << note << '\n';
  comparisons_text(v, result.findings, out);
  for (const RotatedHazard& h : result.hazards) out << "  hazard " << to_string(h.kind) << ": " << h.evidence << '\n';
  for (const std::string& reason : v.reasons) out << "  " << to_string(v.verdict) << ": " << reason << '\n';
  return out.str();
}

}  // namespace pecheck::validate
