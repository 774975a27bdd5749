// The rows detection fits a rotary cache's frequencies on (rows 0..count-1,
// each frequency's sin and cos), copied out of the cache for the estimates'
// kernel (frequency_fit.hpp) and laid out for the threads that fill and read
// them: the pairs are estimated a group of eight at a time, and group g's
// eight sin values then its eight cos values of a row fill cache lines of
// their own (64 bytes in float32), so that the thread estimating a group
// copies its columns as it starts on it and no two threads write one line.
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
  // Allocated, not filled: fill() each group before it is read.
  RotaryFitRows(const Table& cos, const Table& sin, RotaryLayout layout, std::int64_t frequencies, std::int64_t rows);

  const Table& table() const { return table_; }
  // Frequency i's columns in table(), in frequency order.
  const std::vector<FrequencyColumns>& columns() const { return columns_; }
  // Copies the rows of frequencies [first, first + count), within one group.
  void fill(std::size_t first, std::size_t count);

 private:
  const Table& cos_;
  const Table& sin_;
  RotaryLayout layout_;
  Table table_;
  std::vector<FrequencyColumns> columns_;
};

// Row 0's [sin of each frequency | cos of each frequency] as doubles, for
// row0_angles (rotary_placement.hpp).
Table rotary_row0_pairs(const Table& cos, const Table& sin, RotaryLayout layout, std::int64_t frequencies);

}  // namespace pecheck::validate
