// `pecheck validate FILE`: a third-party additive table against the correctly rounded
// reference of the convention it holds, with the numeric faults of
// CONVENTIONS.md ("Numeric faults seen in real code") diagnosed from the
// table itself.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "pecheck/convention.hpp"
#include "pecheck/format.hpp"
#include "pecheck/table.hpp"
#include "pecheck/validate/validation.hpp"

namespace pecheck::validate {

struct ValidationOptions {
  // Given, the table is compared with them; when they do not fit, detection
  // runs all the same and a convention_mismatch hazard says what the table is.
  std::optional<Convention> convention;     // skip detection of the convention
  std::optional<std::int64_t> row_offset;   // skip detection of the offset
  std::optional<double> max_ulp;            // default: the third-party budget of the format
  std::optional<double> max_abs_error;      // alone: replaces the ULP criterion; with max_ulp: both hold
  // assert_close's criterion (accuracy/close_allowance.hpp): an entry passes
  // when |stored - exact| <= atol + rtol |exact|, or when within max_ulp
  // (default 0 with either given). Replaces the float64-angle bound.
  std::optional<double> atol;
  std::optional<double> rtol;
  // The table is an estimate whose entries may be off by this much without
  // any fault of the encoding (the PE recovered from an input layer's output,
  // input_layer.cpp): a row within it of the encoding at some position is no
  // evidence of positions or angles held in a low precision, so the fault
  // diagnoses (faults.hpp) count only deviations past it. Verdicts are not
  // affected: the budgets above decide them.
  std::optional<double> estimate_abs_error;
  // Entries beyond the ULP budget pass when within the float64-angle bound
  // (accuracy/angle_allowance.hpp) unless this is set.
  bool ulp_only = false;
  // Default: the narrowest format holding every value. Detection's
  // tolerances come from that narrowest format all the same (or from this
  // one when it is coarser): bfloat16 values compared as float32 are still
  // paired and placed with bfloat16's tolerance.
  std::optional<FormatId> compare_as;
  // 0 (the default): every entry is compared with the reference. N > 0:
  // only N rows, chosen deterministically (the rows the fast scan found
  // worst first, the table's edges, positions at powers of two, then blocks
  // spread evenly); the result then says it was sampled.
  std::int64_t sample_rows = 0;
  int threads = 0;  // reference threads, 0: hardware concurrency
  // Called as rows are compared with the reference (done, total).
  std::function<void(std::int64_t, std::int64_t)> progress;
  // Whether the comparison counts its histogram of ulps (the report's
  // figure); `pecheck validate` without --output-dir prints none and leaves
  // it out (RotaryValidationOptions::histograms says what it saves).
  bool histograms = true;
};

// Throws ValidationInputError for a table that cannot be an encoding table,
// and ConventionError for options the table contradicts (an offset that puts
// a position at or past 2^24, a width the given convention rejects).
Validation validate_table(const Table& table, const ValidationOptions& options = {});


}  // namespace pecheck::validate
