// CONVENTIONS.md fault 1 read from the rows alone: integer positions held in
// bfloat16 (exact to 256) or float16 (exact to 2048) before anything else is
// computed. Whatever follows (angles in float32, in the same low precision,
// or exact), a row is a function of its rounded position, so successive
// positions that round to one value give identical successive rows, in runs
// whose boundaries are exactly where the format's rounding steps. A correct
// table has no identical successive rows at all: the fastest pair (w = 1)
// moves by 2 sin(1/2) ~ 0.96 from one position to the next.
//
// The steps depend on the positions only, not on the angles, so they tell
// the fault (and the position of row 0) even when low-precision angles make
// every row far from the encoding at any position.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include "pecheck/convention.hpp"
#include "pecheck/format.hpp"
#include "pecheck/table.hpp"

namespace pecheck::validate {

struct SuccessiveRows {
  // identical[r] for r < rows - 1: 1 when rows r and r + 1 hold the same
  // values, 0 when they differ, -1 when either is all zeros (a padding row:
  // no evidence either way).
  std::vector<std::int8_t> identical;
  std::int64_t identical_pairs = 0;
  std::int64_t first_identical = -1;  // r of the first identical pair (r, r + 1)
};
SuccessiveRows successive_rows(const TableView& table);

// The same a range of rows at a time, for a pass that reads the rows for
// something else too, the ranges in any order or at once: `rows` from
// successive_rows_to_add (identical sized, every pair different), then for
// ranges covering [0, rows - 1) the pairs (r, r + 1), r in [first, last),
// into identical[r]; each range's count, added in row order
// (add_successive_count), gives successive_rows's counts.
struct SuccessiveCount {
  std::int64_t identical_pairs = 0;
  std::int64_t first_identical = -1;
};
SuccessiveRows successive_rows_to_add(std::int64_t table_rows);
SuccessiveCount add_successive_rows(const TableView& table, std::int64_t first, std::int64_t last,
                                    std::span<std::int8_t> identical);
void add_successive_count(SuccessiveRows& rows, const SuccessiveCount& range);

// The integer p becomes when held in `format` (round to nearest even).
std::int64_t held_position(std::int64_t p, FormatId format);

// The convention rows file rows hold at `row_offset` when their positions
// (position_of_row of row + row_offset) are held in `held` (as they are when
// not given).
std::vector<std::int64_t> held_convention_rows(const std::vector<std::int64_t>& rows, std::int64_t row_offset,
                                               const Convention& convention, std::optional<FormatId> held);

// A format whose rounding of the positions P0, P0 + 1, ... groups every pair
// of successive rows exactly as the table does (identical where two
// positions round to one value, different elsewhere).
struct PositionSteps {
  FormatId format = FormatId::bfloat16;
  std::int64_t identical_pairs = 0;
  std::int64_t first_identical = -1;
  // Every P0, the unrounded position of file row 0, that groups them so,
  // ascending; within one binade the steps repeat every two spacings, so
  // several may fit, and the angles choose among them.
  std::vector<std::int64_t> first_positions;
};

// The formats are tried in order (bfloat16 before float16 by default). P0
// ranges over [min_first, max_first], which may reach below zero (down to
// -(2^24 - 1)).
// Empty when no pair is identical or no format and P0 group the rows so.
std::optional<PositionSteps> fit_position_steps(const SuccessiveRows& rows, std::int64_t min_first,
                                                std::int64_t max_first,
                                                const std::vector<FormatId>& formats = {FormatId::bfloat16, FormatId::float16});

}  // namespace pecheck::validate
