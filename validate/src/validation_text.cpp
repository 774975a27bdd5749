#include <cmath>
#include <sstream>

#include "comparison.hpp"
#include "pecheck/count_text.hpp"
#include "pecheck/validate/validation_report.hpp"

namespace pecheck::validate {

namespace {

std::string input_text(const accuracy::WorstInput& input) {
  return "row " + std::to_string(input.row) + " (position " + std::to_string(input.position) + "), column " +
         std::to_string(input.column) + ": " + input.value_hex + " against exact " + input.exact_text;
}

std::string entries(std::int64_t count) { return std::to_string(count) + (count == 1 ? " entry" : " entries"); }

std::string number(double x) {
  std::ostringstream out;
  out.precision(4);
  out << x;
  return out.str();
}

}  // namespace

std::string criterion_text(const ValidationResult& result) {
  const accuracy::Measurement& m = result.measurement;
  std::string text;
  if (!result.ulp_criterion) {
    text = "the absolute error alone (--max-abs-error): max " + number(m.max_abs_error) + " against " +
           number(*result.max_abs_error_budget);
    return text;
  }
  const std::string budget = number(m.budget_ulp) + " ULP";
  if (!m.abs_bound) {
    text = "the ULP budget alone (--ulp-only): max " + number(m.max_ulp) + " ULP against " + budget;
  } else if (m.abs_bound->beyond_ulp == 0) {
    text = "the ULP budget: every entry is within " + budget + " (" + m.abs_bound->name + " was not needed)";
  } else {
    text = "the ULP budget or " + m.abs_bound->name + ": " + entries(m.abs_bound->beyond_ulp) + " beyond " + budget +
           ", ";
    text += m.abs_bound->beyond_bound == 0 ? "each within the bound"
                                           : std::to_string(m.abs_bound->beyond_bound) + " of them beyond the bound too";
  }
  if (result.max_abs_error_budget) {
    text += "; and the absolute error: max " + number(m.max_abs_error) + " against " + number(*result.max_abs_error_budget);
  }
  return text;
}

std::string validation_text(const ValidationResult& result, const std::string& file) {
  const Detection& detection = result.detection;
  std::ostringstream out;
  out.precision(4);
  out << file << ": " << to_string(result.verdict) << '\n';
  out << "  table: " << count_of(result.rows, "row") << " x " << count_of(result.dim, "column") << ", "
      << format_of(result.stored_format).name << '\n';
  if (!result.format_note.empty()) out << "  format: " << result.format_note << '\n';
  if (detection.convention) {
    out << "  convention: " << (detection.preset ? *detection.preset : std::string("none of the presets"));
    for (const std::string& name : detection.also_matches) out << " (also " << name << ")";
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
  for (const std::string& note : detection.notes) out << "  note: " << note << '\n';
  if (result.compared) {
    const accuracy::Measurement& m = result.measurement;
    // Within half an ULP of an exact value is the correctly rounded value.
    out << "  compared: " << entries(m.entries) << " of " << count_of(result.rows_compared, "row")
        << " against the reference's exact values (each within 2^"
        << std::ilogb(comparison_exact_tolerance(result.compared_format))
        << " relative; 0.5 ULP or less is correctly rounded " << format_of(result.compared_format).name << ")";
    if (result.sampled) {
      out << " (SAMPLED on request: " << result.rows_compared << " of " << result.rows
          << " rows; without --sample every entry is compared)";
    }
    out << "; " << count_of(result.reference_escalations, "entry", "entries")
        << " needed the reference's MPFR fallback";
    out << "\n  max " << m.max_ulp << " ULP, RMS " << m.rms_ulp << " ULP, max abs error " << m.max_abs_error;
    if (m.mismatches > 0) out << ", " << count_of(m.mismatches, "typed mismatch", "typed mismatches");
    out << '\n';
    if (m.entries > m.mismatches) {
      out << "  worst ULP: " << input_text(m.worst) << ": " << m.max_ulp << " ULP, abs error " << m.worst.abs_error
          << '\n';
    }
    out << "  budget: ";
    if (result.ulp_criterion) out << m.budget_ulp << " ULP (" << m.budget_source << ")";
    if (m.abs_bound) out << ", or " << m.abs_bound->name << " (" << m.abs_bound->source << ")";
    if (result.max_abs_error_budget) out << (result.ulp_criterion ? "; " : "") << "abs error " << *result.max_abs_error_budget;
    out << '\n';
    if (m.abs_bound && m.abs_bound->beyond_ulp > 0) {
      const accuracy::AbsoluteBoundCheck& check = *m.abs_bound;
      out << "  worst against " << check.name << ": " << input_text(check.worst) << ": " << check.worst_ulp
          << " ULP, abs error " << check.worst.abs_error << ", bound " << check.worst_bound << " (|error| / bound "
          << check.worst_ratio << ")\n";
    }
    out << "  criterion: " << criterion_text(result) << '\n';
  }
  for (const Hazard& hazard : result.hazards) out << "  hazard " << to_string(hazard.kind) << ": " << hazard.evidence << '\n';
  for (const std::string& reason : result.reasons) out << "  " << to_string(result.verdict) << ": " << reason << '\n';
  return out.str();
}

}  // namespace pecheck::validate
