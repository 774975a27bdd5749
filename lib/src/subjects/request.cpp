#include <string>

#include "pecheck/fast_encoding.hpp"

namespace pecheck {

namespace {

// The largest table any implementation is asked for, as in make_table.
constexpr std::int64_t max_table_entries = std::int64_t{1} << 31;

std::string positions_text() {
  return "positions must lie in (-2^24, 2^24 = " + std::to_string(max_exact_position) +
         "), the range in which float32 holds every integer";
}

}  // namespace

void check_request(const Convention& convention, const TableRequest& request) {
  if (request.rows < 0) {
    throw ConventionError("--rows " + std::to_string(request.rows) + " is negative: expected a row count >= 0");
  }
  if (request.row_offset < 0) {
    throw ConventionError("--offset " + std::to_string(request.row_offset) + " is negative: expected an offset >= 0");
  }
  check_dim(convention, request.dim);
  if (request.rows > max_table_entries / request.dim) {
    throw ConventionError("--rows " + std::to_string(request.rows) + " with --dim " + std::to_string(request.dim) +
                          " is too large a table (at most 2^31 entries)");
  }
  if (convention.span != PositionSpan::fixed) {
    // Callers that know the table's length resolve it (for_rows): table, validate.
    throw ConventionError("--convention " + convention.name +
                          ": a relative encoding, whose positions follow the table's length, is not available "
                          "here (expected it with table or validate, which know the length)");
  }
  if (convention.position_step != 1 && convention.position_step != -1) {
    throw ConventionError("convention '" + convention.name + "': position step " +
                          std::to_string(convention.position_step) + " (expected +1 or -1)");
  }
  if (request.rows == 0) return;

  // Bound every operand by 2^25 before adding, so nothing below can overflow
  // (a relative table's 2^25 - 1 rows hold 2^24 - 1 down to -(2^24 - 1)).
  const std::int64_t shift = convention.position_offset;
  if (request.row_offset >= 2 * max_exact_position || shift >= max_exact_position || shift <= -max_exact_position) {
    throw ConventionError("--offset " + std::to_string(request.row_offset) + " with convention '" + convention.name +
                          "' (position offset " + std::to_string(shift) + "): " + positions_text());
  }
  // Positions are monotonic in the row: the first and last rows bound them all.
  const std::int64_t first_position = position_of_row(convention, request.row_offset);
  const std::int64_t last_position = position_of_row(convention, request.row_offset + request.rows - 1);
  if (first_position <= -max_exact_position || first_position >= max_exact_position) {
    throw ConventionError("--offset " + std::to_string(request.row_offset) + ": the first row holds position " +
                          std::to_string(first_position) + " in convention '" + convention.name + "'; " +
                          positions_text());
  }
  if (last_position <= -max_exact_position || last_position >= max_exact_position) {
    throw ConventionError("--rows " + std::to_string(request.rows) + " with --offset " +
                          std::to_string(request.row_offset) + " reaches position " + std::to_string(last_position) +
                          " in convention '" + convention.name + "'; " + positions_text());
  }
}

}  // namespace pecheck
