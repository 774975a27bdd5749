// What `pecheck validate cos.npy --sin sin.npy` prints: text for people, one
// JSON object for machines.
#include <cmath>
#include <sstream>

#include <nlohmann/json.hpp>

#include "json_values.hpp"
#include "pecheck/validate/rotary_validation.hpp"

namespace pecheck::validate {

namespace {

using nlohmann::json;

json number(double x) { return json_number(x); }

std::string figure(double x, int digits = 4) {
  std::ostringstream out;
  out.precision(digits);
  out << x;
  return out.str();
}

}  // namespace

std::string rotary_validation_text(const RotaryValidationResult& result, const std::string& file) {
  const RotaryDetection& d = result.detection;
  std::ostringstream out;
  out << file << ": " << to_string(result.verdict) << "\n";
  out << "  rotary cache: " << result.rows << " rows x " << result.cols << " columns, compared as "
      << format_of(result.format).name << "\n";
  if (d.rotary) {
    out << "  layout: " << to_string(d.layout) << ", " << d.frequencies << " frequencies; attention factor measured "
        << figure(d.attention_factor, 9) << (d.swapped ? "; cos and sin swapped" : "") << "\n";
    if (d.fitted_base > 0.0) out << "  fitted base at the cache width: " << figure(d.fitted_base, 7) << "\n";
  }
  if (d.convention) {
    out << "  convention: " << describe(*d.convention) << " (" << d.convention_note << ")\n";
    out << "  row offset: file row 0 holds position " << d.first_position << "\n";
  }
  for (const std::string& note : d.notes) out << "  note: " << note << "\n";
  for (const RotaryComparison& c : result.comparisons) {
    const accuracy::Measurement& m = c.measurement;
    out << "  against " << c.target << ": " << (c.conforms ? "within" : "beyond") << " the budget of " << m.budget_ulp
        << " ULP" << (m.abs_bound ? " or " + m.abs_bound->name : std::string()) << " (" << c.beyond_budget << " of " << m.entries << " entries beyond): max " << figure(m.max_ulp)
        << " ULP, RMS " << figure(m.rms_ulp) << " ULP, max abs error " << figure(m.max_abs_error) << "\n";
    if (m.abs_bound && m.abs_bound->beyond_ulp > 0) {
      out << "    " << m.abs_bound->beyond_ulp << " entries beyond " << m.budget_ulp << " ULP judged by "
          << m.abs_bound->name << " (" << m.abs_bound->source << "): " << m.abs_bound->beyond_bound
          << " beyond it, worst |error| / bound " << figure(m.abs_bound->worst_ratio) << "\n";
    }
    if (m.entries > 0) {
      out << "    worst: row " << m.worst.row << " (position " << m.worst.position << "), column " << m.worst.column
          << " (" << (m.worst.column < result.cols ? "cos" : "sin") << "): " << m.worst.value_hex << " against exact "
          << m.worst.exact_text << "\n";
    }
  }
  for (const RotaryHazard& h : result.hazards) out << "  hazard " << to_string(h.kind) << ": " << h.evidence << "\n";
  return out.str();
}

std::string rotary_validation_json(const RotaryValidationResult& result, const std::string& file) {
  const RotaryDetection& d = result.detection;
  json out;
  out["file"] = file;
  out["kind"] = "rotary";
  out["verdict"] = std::string(to_string(result.verdict));
  out["rows"] = result.rows;
  out["cols"] = result.cols;
  out["compared_as"] = std::string(format_of(result.format).name);
  out["rotary"] = d.rotary;
  out["layout"] = std::string(to_string(d.layout));
  out["frequencies"] = d.frequencies;
  out["attention_factor"] = number(d.attention_factor);
  out["swapped"] = d.swapped;
  out["fitted_base"] = number(d.fitted_base);
  out["convention"] = d.convention ? json(describe(*d.convention)) : json(nullptr);
  json dynamic = json::array();
  for (const RotaryConvention& c : d.dynamic_ntk_alternatives) {
    dynamic.push_back({{"preset", c.name},
                       {"base", number(c.base)},
                       {"factor", number(c.scaling.factor)},
                       {"sequence_length", c.scaling.sequence_length},
                       {"trained_length", c.scaling.original_max_position}});
  }
  // Detected dynamic NTK: one entry when the cache decided (factor, L), else every pairing that fits.
  out["dynamic_ntk"] = dynamic;
  out["first_position"] = d.first_position;
  out["positions_held_in"] = d.positions_held_in ? json(format_of(*d.positions_held_in).name) : json(nullptr);
  json comparisons = json::array();
  for (const RotaryComparison& c : result.comparisons) {
    comparisons.push_back({{"target", c.target},
                           {"conforms", c.conforms},
                           {"entries", c.measurement.entries},
                           {"beyond_budget", c.beyond_budget},
                           {"budget_ulp", number(c.measurement.budget_ulp)},
                           {"max_ulp", number(c.measurement.max_ulp)},
                           {"rms_ulp", number(c.measurement.rms_ulp)},
                           {"max_abs_error", number(c.measurement.max_abs_error)}});
  }
  out["comparisons"] = comparisons;
  out["hazards"] = hazards_json(result.hazards);
  out["reasons"] = result.reasons;
  out["notes"] = d.notes;
  return out.dump(2) + "\n";
}

}  // namespace pecheck::validate
