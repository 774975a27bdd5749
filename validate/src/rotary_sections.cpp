// A rotary cache's stages of the one writer (sections.hpp): what the cache
// alone shows (layout, frequencies, attention factor, convention, first
// position), and its comparisons with the exact encoding and the
// computation model.
#include <sstream>

#include <vector>

#include "json_values.hpp"
#include "sections.hpp"
#include "share_text.hpp"
#include "pecheck/number_text.hpp"

namespace pecheck::validate {

namespace {

using nlohmann::json;

}  // namespace

void subject_text(const Validation&, const RotaryFindings& findings, std::ostream& out) {
  const RotaryDetection& d = findings.detection;
  out << "  rotary cache: " << findings.rows << " rows x " << findings.cols << " columns, compared as "
      << format_of(findings.format).name << "\n";
  if (d.rotary) {
    out << "  layout: " << to_string(d.layout) << ", " << d.frequencies << " frequencies; attention factor measured "
        << significant(d.attention_factor, 9) << (d.swapped ? "; cos and sin swapped" : "") << "\n";
    if (d.fitted_base > 0.0) out << "  fitted base at the cache width: " << significant(d.fitted_base, 7) << "\n";
  }
  if (d.convention) {
    out << "  convention: " << describe(*d.convention) << " (" << d.convention_note << ")\n";
    out << "  row offset: file row 0 holds position " << d.first_position << "\n";
  }
}

void comparisons_text(const Validation& v, const RotaryFindings& findings, std::ostream& out) {
  // A conforming cache names first what it conforms to; its distance to the
  // other targets (the exact encoding, for a cache computed as transformers
  // computes it) follows as information, not as a failure.
  const bool conforms = v.verdict == ValidationVerdict::conforms;
  std::vector<const Comparison*> order;
  for (const Comparison& c : v.comparisons) if (c.conforms) order.push_back(&c);
  for (const Comparison& c : v.comparisons) if (!c.conforms) order.push_back(&c);
  for (const Comparison* c : order) {
    const accuracy::Measurement& m = c->measurement;
    const std::string budget = significant(m.budget_ulp, 4) + " ULP" + (m.abs_bound ? " or " + m.abs_bound->name : std::string());
    if (c->conforms) {
      out << "  conforms to " << c->target << ": within the budget of " << budget << " ("
          << share_text(c->beyond_budget, m.entries) << " beyond)";
    } else if (conforms) {
      out << "  distance to " << c->target << " (information): " << share_text(c->beyond_budget, m.entries)
          << " beyond " << budget;
    } else {
      out << "  against " << c->target << ": beyond the budget of " << budget << " ("
          << share_text(c->beyond_budget, m.entries) << " beyond)";
    }
    out << ": max " << significant(m.max_ulp, 4) << " ULP, RMS " << significant(m.rms_ulp, 4)
        << " ULP, max abs error " << significant(m.max_abs_error, 4) << "\n";
    if (m.abs_bound && m.abs_bound->beyond_ulp > 0) {
      out << "    " << m.abs_bound->beyond_ulp << " entries beyond " << m.budget_ulp << " ULP judged by "
          << m.abs_bound->name << " (" << m.abs_bound->source << "): " << m.abs_bound->beyond_bound
          << " beyond it, worst |error| / bound " << significant(m.abs_bound->worst_ratio, 4) << "\n";
    }
    if (m.entries > 0) {
      out << "    worst: row " << m.worst.row << " (position " << m.worst.position << "), column " << m.worst.column
          << " (" << (m.worst.column < findings.cols ? "cos" : "sin") << "): " << m.worst.value_hex
          << " against exact " << m.worst.exact_text << "\n";
    }
  }
}

void subject_json(const Validation&, const RotaryFindings& findings, json& out) {
  const RotaryDetection& d = findings.detection;
  out["rows"] = findings.rows;
  out["cols"] = findings.cols;
  out["compared_as"] = std::string(format_of(findings.format).name);
  out["rotary"] = d.rotary;
  out["layout"] = std::string(to_string(d.layout));
  out["frequencies"] = d.frequencies;
  out["attention_factor"] = json_number(d.attention_factor);
  out["swapped"] = d.swapped;
  out["fitted_base"] = json_number(d.fitted_base);
  out["convention"] = d.convention ? json(describe(*d.convention)) : json(nullptr);
  json dynamic = json::array();
  for (const RotaryConvention& c : d.dynamic_ntk_alternatives) {
    dynamic.push_back({{"preset", c.name},
                       {"base", json_number(c.base)},
                       {"factor", json_number(c.scaling.factor)},
                       {"sequence_length", c.scaling.sequence_length},
                       {"trained_length", c.scaling.original_max_position}});
  }
  // Detected dynamic NTK: one entry when the cache decided (factor, L), else every pairing that fits.
  out["dynamic_ntk"] = dynamic;
  out["first_position"] = d.first_position;
  out["positions_held_in"] = d.positions_held_in ? json(format_of(*d.positions_held_in).name) : json(nullptr);
}

}  // namespace pecheck::validate
