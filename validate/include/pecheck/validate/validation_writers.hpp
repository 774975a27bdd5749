// A validation's result as text for a person and as one JSON object for a
// program (`pecheck validate --json`), whatever the kind of subject: one
// frame (header, subject, notes, comparisons, parts, hazards, reasons) whose
// kind-specific stages are in src/sections.hpp.
//
// Every document has: file, kind (table | rotary | input-layer | rotated), verdict
// (conforms | deviates | unknown), comparisons [{target, conforms, entries,
// beyond_budget, budget_ulp, max_ulp, rms_ulp, max_abs_error, mismatches,
// worst {row, position, column, value, value_hex, exact, ulp, abs_error}}],
// hazards [{kind, evidence}], reasons, notes; then the kind's own keys:
// - table: rows, dim, dtype (as stored), compared_as, format_note, convention
//   (the preset's name or null), also_matches, convention_description,
//   layout, frequency_rule {kind, base | min_timescale, max_timescale |
//   max_period, downscale_freq_shift, scale},
//   odd_dim, zero_rows (file rows), row_offset, first_position and
//   position_step (the position file row 0 holds, +1 or -1 per row),
//   offset_ambiguous, rival_offset, identical_successive_rows, sinusoidal,
//   pair_fraction, compared, entries_compared, rows_compared, sampled,
//   reference_escalations, max_ulp, rms_ulp, max_abs_error, mismatches,
//   budget {max_ulp, source, max_abs_error, float64_angle_bound}, worst,
//   angle_bound {entries_beyond_ulp, entries_beyond_bound, worst_ratio,
//   worst {... as worst, bound}}, criterion {ulp, float64_angle_bound,
//   abs_error, text};
// - rotary: rows, cols, compared_as, rotary, layout, frequencies,
//   attention_factor, swapped, fitted_base, convention, dynamic_ntk,
//   first_position, positions_held_in;
// - input-layer: batch, length, dim, vocabulary_size, activations, scale
//   {...}, scale_used, pe_error_bound, pulled_to_unit, first_position, and
//   encoding (the recovered encoding's own document, a table's);
// - rotated: the pairing, rotary width, direction, frequencies, convention,
//   positions and attention factor read from the data, and the properties
//   of the subject's own outputs (rotated_sections.cpp).
// Numbers that were not measured are null; JSON has no NaN or infinity, so a
// measured one is the string "NaN", "Infinity" or "-Infinity" (as in
// report.json, see its schema's "real").
#pragma once

#include <string>

#include "pecheck/validate/validation.hpp"

namespace pecheck::validate {

std::string validation_text(const Validation& validation, const std::string& file);
std::string validation_json(const Validation& validation, const std::string& file);
// Which criterion decided a table's comparison, with its figures, in one
// line: "the ULP budget or the float64-angle bound: 37 entries beyond 2 ULP,
// each within the bound".
std::string criterion_text(const Validation& validation);

}  // namespace pecheck::validate
