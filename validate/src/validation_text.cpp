#include <sstream>

#include "pecheck/validate/validation_report.hpp"

namespace pecheck::validate {

std::string validation_text(const ValidationResult& result, const std::string& file) {
  const Detection& detection = result.detection;
  std::ostringstream out;
  out.precision(4);
  out << file << ": " << to_string(result.verdict) << '\n';
  out << "  table: " << result.rows << " rows x " << result.dim << " columns, "
      << format_of(result.stored_format).name << '\n';
  if (!result.format_note.empty()) out << "  format: " << result.format_note << '\n';
  if (detection.convention) {
    out << "  convention: " << (detection.preset ? *detection.preset : std::string("none of the presets"));
    for (const std::string& name : detection.also_matches) out << " (also " << name << ")";
    out << "\n    " << describe(*detection.convention) << '\n';
    out << "  row offset: file row 0 holds convention row " << detection.row_offset
        << (detection.offset_ambiguous ? " (ambiguous: another offset fits as well)" : "") << '\n';
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
    const properties::Measurement& m = result.measurement;
    out << "  compared: " << m.entries << " entries of " << result.rows_compared << " rows against the correctly rounded "
        << format_of(result.compared_format).name << " reference";
    if (result.sampled) out << " (rows sampled: --full compares all " << result.rows << ")";
    out << "\n  max " << m.max_ulp << " ULP, RMS " << m.rms_ulp << " ULP, max abs error " << m.max_abs_error;
    if (m.mismatches > 0) out << ", " << m.mismatches << " typed mismatches";
    out << '\n';
    if (m.entries > m.mismatches) {
      out << "  worst: row " << m.worst.row << " (position " << m.worst.position << "), column " << m.worst.column
          << ": " << m.worst.value_hex << " against exact " << m.worst.exact_text << '\n';
    }
    out << "  budget: ";
    if (result.ulp_criterion) out << m.budget_ulp << " ULP (" << m.budget_source << ")";
    if (result.max_abs_error_budget) out << (result.ulp_criterion ? "; " : "") << "abs error " << *result.max_abs_error_budget;
    out << '\n';
  }
  for (const Hazard& hazard : result.hazards) out << "  hazard " << to_string(hazard.kind) << ": " << hazard.evidence << '\n';
  for (const std::string& reason : result.reasons) out << "  " << to_string(result.verdict) << ": " << reason << '\n';
  return out.str();
}

}  // namespace pecheck::validate
