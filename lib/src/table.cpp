#include "pecheck/table.hpp"

#include <limits>
#include <new>
#include <string>

#include "pecheck/convention.hpp"

namespace pecheck {

Table make_table(std::int64_t rows, std::int64_t cols, FormatId format) {
  const std::string shape = std::to_string(rows) + " x " + std::to_string(cols);
  if (rows < 0 || cols < 0) throw ConventionError("table shape " + shape + " is negative");
  // Refuse before allocating: 2^31 entries (16 GiB of doubles) is past any
  // machine this runs on, and rows * cols must not overflow.
  constexpr std::int64_t max_entries = std::int64_t{1} << 31;
  if (cols != 0 && rows > max_entries / cols) {
    throw ConventionError("table shape " + shape + " is too large (at most 2^31 entries)");
  }
  Table table;
  table.rows = rows;
  table.cols = cols;
  table.format = format;
  try {
    table.values.assign(static_cast<std::size_t>(rows * cols), 0.0);
  } catch (const std::bad_alloc&) {
    throw ConventionError("table shape " + shape + " could not be allocated");
  }
  return table;
}

}  // namespace pecheck
