// A rows-by-columns table of values of one format, row-major, held as doubles
// (every value of every supported format is exact in double).
#pragma once

#include <cstdint>
#include <vector>

#include "pecheck/format.hpp"

namespace pecheck {

struct Table {
  std::int64_t rows = 0;
  std::int64_t cols = 0;
  FormatId format = FormatId::float32;
  std::vector<double> values;  // rows * cols, row-major

  double at(std::int64_t row, std::int64_t col) const { return values[static_cast<std::size_t>(row * cols + col)]; }
  double& at(std::int64_t row, std::int64_t col) { return values[static_cast<std::size_t>(row * cols + col)]; }
};

// Allocates rows * cols values, throwing ConventionError with the shape in the
// message when the request is impossible (negative, or too large to allocate).
Table make_table(std::int64_t rows, std::int64_t cols, FormatId format);

}  // namespace pecheck
