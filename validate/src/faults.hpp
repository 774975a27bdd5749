// The numeric faults of CONVENTIONS.md ("Numeric faults seen in real code")
// that a table shows by itself, each with the figures that show it.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "pecheck/convention.hpp"
#include "pecheck/table.hpp"
#include "pecheck/validate/detection.hpp"
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

// Each listed file row's largest |table - encoding| at the given positions.
std::vector<double> errors_at(const Table& table, const Convention& convention, const std::vector<std::int64_t>& rows,
                              const std::vector<std::int64_t>& positions);

// Fault 1: integer positions held in bfloat16 (exact to 256) or float16 (to
// 2048), in position_precision.cpp. When detection found the rows identical
// in the steps of such positions at its row offset (detection.positions_held_in),
// that is the evidence, whatever the angles did after. Otherwise it is tested
// as a hypothesis: the rows whose position such a format cannot hold are
// compared with the encoding at the rounded position; when most of them
// match it within `tolerance` and not their own position, the hazard is
// reported. Identical successive rows that neither explains are reported
// too: a correct table has none. When the positions are found rounded,
// `errors` is rewritten with the rounded positions and their errors, so what
// remains can be examined for fault 2.
std::optional<Hazard> position_precision(const Table& table, const Convention& convention, const Detection& detection,
                                         RowErrors& errors, double tolerance);

// A format by its significand bits, and the one nearest q bits (within 2.5).
struct NamedPrecision {
  const char* name;
  int bits;
};
std::optional<NamedPrecision> nearest_precision(double q);

// Fault 2: angles p * w computed in a low precision, whose error grows in
// proportion to the position: max abs error ~ 2^-q p w_max, with q the
// significand bits of the angle. Fitted per octave of positions where the
// error is past `tolerance` and below saturation (0.25).
std::optional<Hazard> angle_precision(const RowErrors& errors, double w_max, double tolerance);

}  // namespace pecheck::validate
