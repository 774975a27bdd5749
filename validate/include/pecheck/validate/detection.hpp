// Which convention a table holds, found from the table alone.
//
// A table may be any slice of a convention's cache: row 0 of the file can
// hold any row below 2^24. Detection finds, in order:
//   - rows that are all zeros (fairseq's padding row) and columns that are;
//   - the layout, by pairing columns whose squares sum to ~1 (interleaved,
//     sin-cos halves, cos-sin halves; the odd column's policy);
//   - the frequencies w_i, from the angles atan2(sin, cos) of successive rows,
//     and the rule they follow (paper with a base, or timescales);
//   - the row held by file row 0: the slowest frequency gives it modulo
//     2 pi / w_min, the faster ones pick the candidate; when successive rows
//     are identical in the steps of positions rounded to bfloat16 or float16,
//     the steps give it instead (position_steps.hpp);
// then keeps the candidate convention whose table is closest to the file's,
// and names the preset it is, if any.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "pecheck/convention.hpp"
#include "pecheck/format.hpp"
#include "pecheck/table.hpp"

namespace pecheck::validate {

struct DetectionOptions {
  std::optional<Convention> convention;  // given: only the row offset is searched
  std::optional<std::int64_t> row_offset;  // given: only the convention is searched
  // The format whose rounding the values carry, for every tolerance of the
  // search (default: the table's format). A table compared as a wider format
  // than its values hold (bfloat16 values under --dtype float32) must still
  // be paired and placed with the tolerance of its values.
  std::optional<FormatId> value_format;
};

struct Detection {
  // False when no pairing of columns has sin^2 + cos^2 near 1 in most rows:
  // the table is not a sinusoidal encoding (or its values are too damaged).
  bool sinusoidal = false;
  // The fraction of (row, pair) entries of the chosen pairing with
  // |sin^2 + cos^2 - 1| within the tolerance of the table's format.
  double pair_fraction = 0.0;
  // The convention found (position_offset 0; zero rows in convention rows),
  // or the one given. Empty when nothing matched.
  std::optional<Convention> convention;
  // The preset that is this convention, and others identical at this width
  // and over these rows (tf-tutorial and marian-hf at even d).
  std::optional<std::string> preset;
  std::vector<std::string> also_matches;
  std::int64_t row_offset = 0;  // file row r holds the convention's row r + row_offset
  bool offset_ambiguous = false;  // another offset fits as well (tiny widths, or faults that spoil every row)
  std::optional<std::int64_t> rival_offset;  // that other offset, when offset_ambiguous
  // Both fit within the table's rounding (a narrow, coarse table), so more
  // offsets may: the table deviating at two of them says nothing of the rest.
  // False when they were told apart by the likelihood, every offset far
  // from the table (a fault): then deviating at both is deviating.
  bool offset_within_rounding = false;
  // Successive rows that are identical: a correct table has none. When
  // positions held in `positions_held_in` (CONVENTIONS.md fault 1) group the
  // rows exactly so, row_offset is one those steps allow, and the encoding
  // it was chosen by is taken at the rounded positions.
  std::int64_t identical_pairs = 0;
  std::int64_t first_identical = -1;  // r of the first identical pair (r, r + 1)
  std::optional<FormatId> positions_held_in;
  // The largest |table - encoding| of the chosen candidate over the rows it
  // was scored on (pecheck's fast float64 table as the encoding).
  double candidate_error = 0.0;
  std::vector<std::int64_t> zero_rows;     // file rows that are all zeros
  std::vector<std::int64_t> zero_columns;  // columns zero in every other row
  std::vector<std::string> notes;          // how it was found, one sentence each
};

// Throws ConventionError when a given convention cannot produce the table's
// width or a given offset puts a position at or past 2^24.
Detection detect_convention(const Table& table, const DetectionOptions& options = {});

}  // namespace pecheck::validate
