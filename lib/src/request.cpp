#include <sstream>
#include <string>

#include "pecheck/fast_encoding.hpp"

namespace pecheck {

namespace {

// `reached` says how far the rows go: "position 16777216", "past position 2^40".
std::string position_error(const Convention& convention, const TableRequest& request, const std::string& reached) {
  std::ostringstream message;
  message << "--rows " << request.rows << " with --offset " << request.row_offset << " reaches " << reached
          << " in convention '" << convention.name << "'; positions must stay within (-2^24, 2^24) = ("
          << -max_exact_position << ", " << max_exact_position
          << "), the range in which float32 holds every integer";
  return message.str();
}

}  // namespace

void check_request(const Convention& convention, const TableRequest& request) {
  if (request.rows < 0) {
    throw ConventionError("--rows " + std::to_string(request.rows) + " is negative; expected a count of rows >= 0");
  }
  if (request.row_offset < 0) {
    throw ConventionError("--offset " + std::to_string(request.row_offset) +
                          " is negative; expected the first row's index, >= 0");
  }
  check_dim(convention, request.dim);
  if (request.rows == 0) return;
  // Each term is bounded before they are added, so the sum cannot overflow.
  constexpr std::int64_t huge = std::int64_t{1} << 40;
  if (request.rows > huge || request.row_offset > huge || convention.position_offset > huge ||
      convention.position_offset < -huge) {
    throw ConventionError(position_error(convention, request, "past position 2^40"));
  }
  const std::int64_t first_position = position_of_row(convention, request.row_offset);
  const std::int64_t last_position = position_of_row(convention, request.row_offset + request.rows - 1);
  for (const std::int64_t position : {first_position, last_position}) {
    if (position <= -max_exact_position || position >= max_exact_position) {
      throw ConventionError(position_error(convention, request, "position " + std::to_string(position)));
    }
  }
  // rows <= 2^25 and dim <= max_dim = 2^14 here, so the product does not overflow.
  constexpr std::int64_t max_entries = std::int64_t{1} << 31;
  if (request.rows * request.dim > max_entries) {
    throw ConventionError("--rows " + std::to_string(request.rows) + " x --dim " + std::to_string(request.dim) +
                          " is " + std::to_string(request.rows * request.dim) +
                          " entries; at most 2^31 = " + std::to_string(max_entries) + " fit in one table");
  }
}

}  // namespace pecheck
