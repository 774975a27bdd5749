// The numeric faults of CONVENTIONS.md ("Numeric faults seen in real code")
// that a table shows by itself, each with the figures that show it.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "pecheck/convention.hpp"
#include "pecheck/table.hpp"
#include "pecheck/validate/validation.hpp"

namespace pecheck::validate {

// NaN or infinity anywhere; finite values outside [-1, 1] (fault 8).
std::vector<Hazard> value_hazards(const Table& table);

// Each listed file row's largest |table - encoding| against pecheck's fast
// float64 rows at the position the row should hold (or at `positions`).
struct RowErrors {
  std::vector<std::int64_t> rows;       // file rows, ascending
  std::vector<std::int64_t> positions;  // the position each is compared at
  std::vector<double> errors;
};
RowErrors scan_row_errors(const Table& table, const Convention& convention, std::int64_t row_offset,
                          const std::vector<std::int64_t>& rows);

// Fault 1: integer positions held in bfloat16 (exact to 256) or float16 (to
// 2048). Tested as a hypothesis: the rows whose position such a format
// cannot hold are compared with the encoding at the rounded position; when
// most of them match it within `tolerance` and not their own position, the
// hazard is reported with the collisions (identical successive rows). On
// success `errors` is rewritten with the rounded positions and their errors,
// so what remains can be examined for fault 2.
std::optional<Hazard> position_precision(const Table& table, const Convention& convention,
                                         RowErrors& errors, double tolerance);

// Fault 2: angles p * w computed in a low precision, whose error grows in
// proportion to the position: max abs error ~ 2^-q p w_max, with q the
// significand bits of the angle. Fitted per octave of positions where the
// error is past `tolerance` and below saturation (0.25).
std::optional<Hazard> angle_precision(const RowErrors& errors, double w_max, double tolerance);

// Identical successive rows among `rows` (ascending file rows): how many, and the first.
struct Collisions {
  std::int64_t count = 0;
  std::int64_t first = -1;
};
Collisions identical_successive_rows(const Table& table, const std::vector<std::int64_t>& rows);

}  // namespace pecheck::validate
