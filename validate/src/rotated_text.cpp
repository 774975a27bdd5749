// The plain-text account of a rotated-output validation (until the one
// Validation's writer takes the rotated findings).
#include <sstream>

#include "pecheck/validate/rotated_output.hpp"

namespace pecheck::validate {

std::string rotated_validation_text(const RotatedValidationResult& result, const std::string& file) {
  const RotatedFindings& f = result.findings;
  std::ostringstream out;
  out.precision(6);
  out << file << ": " << to_string(result.verdict) << " (rotated output " << shape_text(f.shape) << ", "
      << format_of(f.format).name << ")\n";
  out << "  sequence axis " << f.sequence_axis << ": " << f.sequence_axis_note << "\n";
  out << "  pairing " << to_string(f.layout) << ", rotary width " << f.rotary_width << " of " << f.head_dim << " ("
      << 100.0 * f.pairing_fraction << "% of the pairs keep |out| / |in|)" << (f.reversed ? ", rotated by -theta" : "")
      << "\n";
  out << "  attention factor " << f.attention_factor << " (median |out| / |in|)\n";
  if (f.convention) out << "  convention: " << describe(*f.convention) << " (" << f.convention_note << ")\n";
  if (f.frequencies_fitted) {
    out << "  positions: POS starts at " << f.first_position << ", the angles say "
        << f.first_position + f.position_offset << "\n";
  }
  for (const RotaryComparison& c : result.comparisons) {
    const properties::Measurement& m = c.measurement;
    out << "  against " << c.target << ": max " << m.max_ulp << " ULP, RMS " << m.rms_ulp << " ULP over " << m.entries
        << " entries (budget " << m.budget_ulp << " ULP), " << c.beyond_budget << " beyond"
        << (c.conforms ? ": conforms" : "") << "\n";
    if (m.abs_bound && m.abs_bound->beyond_ulp > 0) {
      out << "    " << m.abs_bound->beyond_ulp << " beyond the ULP budget, " << m.abs_bound->beyond_bound << " beyond "
          << m.abs_bound->name << " (worst |error| / bound " << m.abs_bound->worst_ratio << ")\n";
    }
  }
  for (const RotatedProperty& p : f.properties) {
    out << "  property: " << p.claim << ": " << (p.holds() ? "holds" : "fails") << " on " << p.checked << " ("
        << p.violations << " beyond " << p.bound << "; worst ratio " << p.worst_ratio << ")\n";
  }
  for (const RotatedHazard& h : result.hazards) out << "  hazard " << to_string(h.kind) << ": " << h.evidence << "\n";
  for (const std::string& note : f.notes) out << "  note: " << note << "\n";
  for (const std::string& reason : result.reasons) out << "  reason: " << reason << "\n";
  return out.str();
}

}  // namespace pecheck::validate
