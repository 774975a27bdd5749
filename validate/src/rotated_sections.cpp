// A rotated output's stages of the one writer (sections.hpp): what the data
// show of the kernel (shape and sequence axis, pairing and rotary width,
// direction, attention factor, convention and positions), its comparisons
// with the exact rotation and the computation models, and the properties of
// its own values.
#include "sections.hpp"

#include "json_values.hpp"
#include "pecheck/npy_array.hpp"
#include "pecheck/number_text.hpp"

namespace pecheck::validate {

namespace {

using nlohmann::json;

}  // namespace

void subject_text(const Validation&, const RotatedFindings& f, std::ostream& out) {
  out << "  rotated output " << shape_text(f.shape) << ", compared as " << format_of(f.format).name
      << "; sequence axis " << f.sequence_axis << " (" << f.sequence_axis_note << ")\n";
  out << "  pairing: " << to_string(f.layout) << ", rotary width " << f.rotary_width << " of " << f.head_dim << " ("
      << significant(100.0 * f.pairing_fraction, 4) << "% of the pairs keep |out| / |in|)"
      << (f.reversed ? "; rotated by -theta" : "") << "; attention factor measured "
      << significant(f.attention_factor, 9) << "\n";
  if (f.fitted_base > 0.0) out << "  fitted base at the rotary width: " << significant(f.fitted_base, 7) << "\n";
  if (f.convention) out << "  convention: " << describe(*f.convention) << " (" << f.convention_note << ")\n";
  if (f.frequencies_fitted) {
    out << "  positions: POS starts at " << f.first_position << ", the angles put "
        << f.first_position + f.position_offset << " there\n";
  }
}

void comparisons_text(const Validation& v, const RotatedFindings& f, std::ostream& out) {
  for (const Comparison& c : v.comparisons) {
    const accuracy::Measurement& m = c.measurement;
    out << "  against " << c.target << ": " << (c.conforms ? "within" : "beyond") << " the budget of " << m.budget_ulp
        << " ULP" << (m.abs_bound ? " or " + m.abs_bound->name : std::string()) << " (" << c.beyond_budget << " of "
        << m.entries << " entries beyond): max " << significant(m.max_ulp, 4) << " ULP, RMS "
        << significant(m.rms_ulp, 4) << " ULP, max abs error " << significant(m.max_abs_error, 4) << "\n";
    if (m.abs_bound && m.abs_bound->beyond_ulp > 0) {
      out << "    " << m.abs_bound->beyond_ulp << " entries beyond " << m.budget_ulp << " ULP judged by "
          << m.abs_bound->name << " (" << m.abs_bound->source << "): " << m.abs_bound->beyond_bound
          << " beyond it, worst |error| / bound " << significant(m.abs_bound->worst_ratio, 4) << "\n";
    }
    if (m.entries > 0) {
      out << "    worst: row " << m.worst.row << " (position " << m.worst.position << "), column " << m.worst.column
          << ": " << m.worst.value_hex << " against " << m.worst.exact_text << "\n";
    }
    if (m.reference_escalations > 0) {
      out << "    " << m.reference_escalations << " pairs decided by MPFR (the first step left them)\n";
    }
  }
  for (const RotatedProperty& p : f.properties) {
    out << "  property: " << p.claim << ": " << (p.holds() ? "holds" : "fails") << " on " << p.checked << " ("
        << p.violations << " beyond " << p.bound << "; largest deviation / bound " << significant(p.worst_ratio, 4)
        << ")\n";
  }
}

void subject_json(const Validation&, const RotatedFindings& f, json& out) {
  out["shape"] = f.shape;
  out["sequence_axis"] = f.sequence_axis;
  out["compared_as"] = std::string(format_of(f.format).name);
  out["head_dim"] = f.head_dim;
  out["rotary_width"] = f.rotary_width;
  out["layout"] = std::string(to_string(f.layout));
  out["pairing_fraction"] = json_number(f.pairing_fraction);
  out["reversed"] = f.reversed;
  out["attention_factor"] = json_number(f.attention_factor);
  out["fitted_base"] = json_number(f.fitted_base);
  out["convention"] = f.convention ? json(describe(*f.convention)) : json(nullptr);
  out["first_position"] = f.first_position;
  out["position_offset"] = f.frequencies_fitted ? json(f.position_offset) : json(nullptr);
  json properties = json::array();
  for (const RotatedProperty& p : f.properties) {
    properties.push_back({{"claim", p.claim},
                          {"bound", p.bound},
                          {"holds", p.holds()},
                          {"checked", p.checked},
                          {"violations", p.violations},
                          {"worst_ratio", json_number(p.worst_ratio)}});
  }
  out["properties"] = properties;
}

}  // namespace pecheck::validate
