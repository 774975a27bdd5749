// Which rows of a table carry values, and deterministic samples of them.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "pecheck/table.hpp"

namespace pecheck::validate {

// True when every entry of the row is +0 or -0.
bool is_zero_row(const Table& table, std::int64_t row);

struct RowSplit {
  std::vector<std::int64_t> zero;  // rows that are all zeros
  std::vector<std::int64_t> live;  // every other row, ascending
};
RowSplit split_rows(const Table& table);

// At most `count` of `rows` (ascending), evenly spread, always keeping the
// first and the last: the same rows every run.
std::vector<std::int64_t> spread_sample(const std::vector<std::int64_t>& rows, std::size_t count);

// The longest run of consecutive rows in `rows` (ascending), cut to its first
// `most` rows: successive positions, where angle differences are meaningful.
std::vector<std::int64_t> longest_consecutive_run(const std::vector<std::int64_t>& rows, std::size_t most);

}  // namespace pecheck::validate
