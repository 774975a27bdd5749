// A validation's result as text for a person and as one JSON object for a
// program (`pecheck validate --json`).
//
// The JSON object's keys: file, verdict (conforms | deviates | unknown),
// rows, dim, dtype (as stored), compared_as, format_note, convention (the
// preset's name or null), also_matches, convention_description, layout,
// frequency_rule {kind, base | min_timescale, max_timescale}, odd_dim,
// zero_rows (file rows), row_offset, first_position and position_step (the
// position file row 0 holds, +1 or -1 per row), offset_ambiguous, sinusoidal,
// pair_fraction, compared, entries_compared, rows_compared, sampled,
// max_ulp, rms_ulp, max_abs_error, mismatches, budget {max_ulp, source,
// max_abs_error, float64_angle_bound (its source, or null under --ulp-only)},
// worst {row, position, column, value, value_hex, exact, ulp, abs_error},
// angle_bound {entries_beyond_ulp, entries_beyond_bound, worst_ratio, worst
// {... as worst, bound}} (null when the bound was not applied), criterion
// {ulp, float64_angle_bound, abs_error (which applied), text}, hazards
// [{kind, evidence}], reasons, notes. Numbers that were not measured are null;
// JSON has no NaN or infinity, so a measured one is the string "NaN",
// "Infinity" or "-Infinity" (as in report.json, see its schema's "real").
#pragma once

#include <string>

#include "pecheck/validate/validation.hpp"

namespace pecheck::validate {

std::string validation_text(const ValidationResult& result, const std::string& file);
// Which criterion decided the comparison, with its figures, in one line: "the
// ULP budget or the float64-angle bound: 37 entries beyond 2 ULP, each within
// the bound".
std::string criterion_text(const ValidationResult& result);
std::string validation_json(const ValidationResult& result, const std::string& file);

}  // namespace pecheck::validate
