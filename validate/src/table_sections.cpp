// An additive table's stages of the one writer (sections.hpp): what the
// table is (shape, format, convention, offset, zero rows) and how its one
// comparison with the reference was judged.
#include <cmath>
#include <sstream>

#include "comparison.hpp"
#include "json_values.hpp"
#include "pecheck/count_text.hpp"
#include "pecheck/accuracy/angle_allowance.hpp"
#include "pecheck/validate/validation_writers.hpp"
#include "sections.hpp"
#include "share_text.hpp"
#include "pecheck/number_text.hpp"

namespace pecheck::validate {

namespace {

using nlohmann::json;

std::string input_text(const accuracy::WorstInput& input) {
  return "row " + std::to_string(input.row) + " (position " + std::to_string(input.position) + "), column " +
         std::to_string(input.column) + ": " + input.value_hex + " against exact " + input.exact_text;
}

std::string entries(std::int64_t count) { return std::to_string(count) + (count == 1 ? " entry" : " entries"); }

const accuracy::Measurement& measurement_of(const Validation& v) { return v.comparisons.front().measurement; }

json rule_json(const FrequencyRule& rule) {
  if (rule.kind == FrequencyRuleKind::paper) return {{"kind", "paper"}, {"base", rule.base}};
  if (rule.kind == FrequencyRuleKind::timestep) {
    return {{"kind", "timestep"},
            {"max_period", rule.max_period},
            {"downscale_freq_shift", rule.downscale_freq_shift},
            {"scale", rule.scale}};
  }
  return {{"kind", "timescale"}, {"min_timescale", rule.min_timescale}, {"max_timescale", rule.max_timescale}};
}

}  // namespace

std::string criterion_text(const Validation& v) {
  const TableFindings& table = v.table();
  const accuracy::Measurement& m = measurement_of(v);
  std::string text;
  if (!table.ulp_criterion) {
    return "the absolute error alone (--max-abs-error): max " + significant(m.max_abs_error, 4) + " against " +
           significant(*table.max_abs_error_budget, 4);
  }
  const std::string budget = significant(m.budget_ulp, 4) + " ULP";
  if (!m.abs_bound) {
    text = "the ULP budget alone (--ulp-only): max " + significant(m.max_ulp, 4) + " ULP against " + budget;
  } else if (m.abs_bound->beyond_ulp == 0) {
    text = "the ULP budget: every entry is within " + budget + " (" + m.abs_bound->name + " was not needed)";
  } else {
    text = "the ULP budget or " + m.abs_bound->name + ": " + share_text(m.abs_bound->beyond_ulp, m.entries) +
           " beyond " + budget + ", ";
    text += m.abs_bound->beyond_bound == 0
                ? "each within the bound"
                : std::to_string(m.abs_bound->beyond_bound) + " of them beyond the bound too " +
                      percent_text(m.abs_bound->beyond_bound, m.entries);
  }
  if (table.max_abs_error_budget) {
    text += "; and the absolute error: max " + significant(m.max_abs_error, 4) + " against " + significant(*table.max_abs_error_budget, 4);
  }
  return text;
}

void subject_text(const Validation&, const TableFindings& table, std::ostream& out) {
  const Detection& detection = table.detection;
  out << "  table: " << count_of(table.rows, "row") << " x " << count_of(table.dim, "column") << ", "
      << format_of(table.stored_format).name << '\n';
  if (!table.format_note.empty()) out << "  format: " << table.format_note << '\n';
  if (detection.convention) {
    out << "  convention: " << (detection.preset ? *detection.preset : std::string("none of the presets"));
    for (std::size_t k = 0; k < detection.also_matches.size(); ++k) {
      out << (k == 0 ? " (also " : ", ") << detection.also_matches[k];
    }
    if (!detection.also_matches.empty()) out << ")";
    out << "\n    " << describe(*detection.convention) << '\n';
    out << "  row offset: file row 0 holds convention row " << detection.row_offset
        << (!detection.offset_ambiguous ? ""
            : detection.rival_offset ? " (ambiguous: row " + std::to_string(*detection.rival_offset) + " fits about as well)"
                                     : std::string(" (ambiguous: another offset fits as well)"))
        << '\n';
    const Convention& convention = *detection.convention;
    out << "  positions: file row 0 holds position " << position_of_row(convention, detection.row_offset)
        << (convention.position_step < 0 ? ", running down (a relative encoding)" : ", running up") << '\n';
  } else {
    out << "  convention: not found\n";
  }
  if (!detection.zero_rows.empty()) {
    out << "  zero rows:";
    for (std::size_t k = 0; k < detection.zero_rows.size() && k < 8; ++k) out << ' ' << detection.zero_rows[k];
    if (detection.zero_rows.size() > 8) out << " ... (" << detection.zero_rows.size() << ")";
    out << '\n';
  }
}

void comparisons_text(const Validation& v, const TableFindings& table, std::ostream& out) {
  if (!table.compared) return;
  const accuracy::Measurement& m = measurement_of(v);
  // Within half an ULP of an exact value is the correctly rounded value.
  out << "  compared: " << entries(m.entries) << " of " << count_of(table.rows_compared, "row")
      << " against the reference's exact values (each within 2^"
      << std::ilogb(comparison_exact_tolerance(table.compared_format))
      << " relative; 0.5 ULP or less is correctly rounded " << format_of(table.compared_format).name << ")";
  if (table.sampled) {
    out << " (SAMPLED on request: " << table.rows_compared << " of " << table.rows
        << " rows; without --sample every entry is compared)";
  }
  out << "; " << count_of(table.reference_escalations, "entry", "entries") << " needed the reference's MPFR fallback";
  out << "\n  max " << m.max_ulp << " ULP, RMS " << m.rms_ulp << " ULP, max abs error " << m.max_abs_error;
  if (m.mismatches > 0) out << ", " << count_of(m.mismatches, "typed mismatch", "typed mismatches");
  out << '\n';
  if (m.entries > m.mismatches) {
    out << "  worst ULP: " << input_text(m.worst) << ": " << m.max_ulp << " ULP, abs error " << m.worst.abs_error
        << '\n';
  }
  out << "  budget: ";
  if (table.ulp_criterion) out << m.budget_ulp << " ULP (" << m.budget_source << ")";
  if (m.abs_bound) out << ", or " << m.abs_bound->name << " (" << m.abs_bound->source << ")";
  if (table.max_abs_error_budget) out << (table.ulp_criterion ? "; " : "") << "abs error " << *table.max_abs_error_budget;
  out << '\n';
  if (m.abs_bound && m.abs_bound->beyond_ulp > 0) {
    const accuracy::AbsoluteBoundCheck& check = *m.abs_bound;
    out << "  worst against " << check.name << ": " << input_text(check.worst) << ": " << check.worst_ulp
        << " ULP, abs error " << check.worst.abs_error << ", bound " << check.worst_bound << " (|error| / bound "
        << check.worst_ratio << ")\n";
  }
  out << "  criterion: " << criterion_text(v) << '\n';
}

void subject_json(const Validation& v, const TableFindings& table, json& out) {
  const Detection& detection = table.detection;
  out["rows"] = table.rows;
  out["dim"] = table.dim;
  out["dtype"] = std::string(format_of(table.stored_format).name);
  out["compared_as"] = std::string(format_of(table.compared_format).name);
  out["format_note"] = table.format_note.empty() ? json(nullptr) : json(table.format_note);
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
  out["compared"] = table.compared;
  const accuracy::Measurement& m = measurement_of(v);
  out["entries_compared"] = m.entries;
  out["rows_compared"] = table.rows_compared;
  out["sampled"] = table.sampled;
  out["reference_escalations"] = table.reference_escalations;
  out["budget"] = {{"max_ulp", table.ulp_criterion ? json(m.budget_ulp) : json(nullptr)},
                   {"source", m.budget_source},
                   {"max_abs_error", table.max_abs_error_budget ? json(*table.max_abs_error_budget) : json(nullptr)},
                   {"float64_angle_bound", table.angle_allowance
                                               ? json(std::string(accuracy::float64_angle_allowance_source))
                                               : json(nullptr)}};
  if (table.compared) {
    out["max_ulp"] = json_number(m.max_ulp);
    out["rms_ulp"] = json_number(m.rms_ulp);
    out["max_abs_error"] = json_number(m.max_abs_error);
    out["mismatches"] = m.mismatches;
    out["worst"] = m.entries > m.mismatches ? worst_json(m.worst, m.max_ulp) : json(nullptr);
    if (m.abs_bound) {
      const accuracy::AbsoluteBoundCheck& check = *m.abs_bound;
      json worst = nullptr;
      if (check.beyond_ulp > 0) {
        worst = worst_json(check.worst, check.worst_ulp);
        worst["bound"] = json_number(check.worst_bound);
      }
      out["angle_bound"] = {{"entries_beyond_ulp", check.beyond_ulp},
                            {"entries_beyond_bound", check.beyond_bound},
                            {"worst_ratio", check.beyond_ulp > 0 ? json_number(check.worst_ratio) : json(nullptr)},
                            {"worst", worst}};
    } else {
      out["angle_bound"] = nullptr;
    }
    out["criterion"] = {{"ulp", table.ulp_criterion},
                        {"float64_angle_bound", table.angle_allowance},
                        {"abs_error", table.max_abs_error_budget.has_value()},
                        {"text", criterion_text(v)}};
  } else {
    for (const char* key : {"max_ulp", "rms_ulp", "max_abs_error", "mismatches", "worst", "angle_bound", "criterion"}) {
      out[key] = nullptr;
    }
  }
}

}  // namespace pecheck::validate
