// The rows detection fits a rotary cache's frequencies on (rows 0..count-1,
// each frequency's sin and cos), copied out of the cache for the estimates'
// kernel (frequency_fit.hpp) a group of eight frequencies at a time, each
// group into a table of its own (row r: the group's eight sin values, then
// its eight cos values; 64 bytes in float32), built by the thread that fits
// the group as it starts on it. One table for all (a row of every group per
// row) had the first group's thread fault in every page of it, 0.3 ms on the
// calling thread's path; a group's own table is its own pages and lines.
// The values are the cache's own (in its format when cos and sin share one,
// else as doubles): at() reads back the doubles at() read from the cache.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "column_pairs.hpp"
#include "pecheck/rotary_convention.hpp"
#include "pecheck/table.hpp"

namespace pecheck::validate {

class RotaryFitRows {
 public:
  RotaryFitRows(const Table& cos, const Table& sin, RotaryLayout layout, std::int64_t frequencies, std::int64_t rows);

  // Frequency i's columns in its group's table, in frequency order.
  const std::vector<FrequencyColumns>& columns() const { return columns_; }
  // Builds and returns the table of the group of frequencies [first, first +
  // count) (frequency_fit.hpp's GroupTable). Groups may be built at once on
  // different threads, each group once.
  const Table& group(std::size_t first, std::size_t count);

 private:
  const Table& cos_;
  const Table& sin_;
  RotaryLayout layout_;
  std::int64_t rows_;
  std::vector<Table> groups_;
  std::vector<FrequencyColumns> columns_;
};

// Row 0's [sin of each frequency | cos of each frequency] as doubles, for
// row0_angles (rotary_placement.hpp).
Table rotary_row0_pairs(const Table& cos, const Table& sin, RotaryLayout layout, std::int64_t frequencies);

}  // namespace pecheck::validate
