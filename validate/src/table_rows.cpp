#include "table_rows.hpp"

#include <algorithm>

namespace pecheck::validate {

bool is_zero_row(const Table& table, std::int64_t row) {
  for (std::int64_t c = 0; c < table.cols; ++c) {
    if (table.at(row, c) != 0.0) return false;  // NaN is not zero either
  }
  return true;
}

RowSplit split_rows(const Table& table) {
  RowSplit split;
  split.live.reserve(static_cast<std::size_t>(table.rows));  // one allocation: almost every row is live
  for (std::int64_t r = 0; r < table.rows; ++r) (is_zero_row(table, r) ? split.zero : split.live).push_back(r);
  return split;
}

std::vector<std::int64_t> spread_sample(const std::vector<std::int64_t>& rows, std::size_t count) {
  if (rows.size() <= count || count < 2) return rows.size() <= count ? rows : std::vector<std::int64_t>(rows.begin(), rows.begin() + static_cast<std::ptrdiff_t>(count));
  std::vector<std::int64_t> sample;
  sample.reserve(count);
  const std::size_t last = rows.size() - 1;
  for (std::size_t k = 0; k < count; ++k) {
    const std::size_t index = (k * last) / (count - 1);  // k = 0 gives the first, k = count-1 the last
    if (sample.empty() || sample.back() != rows[index]) sample.push_back(rows[index]);
  }
  return sample;
}

std::vector<std::int64_t> longest_consecutive_run(const std::vector<std::int64_t>& rows, std::size_t most) {
  std::size_t best_start = 0;
  std::size_t best_length = rows.empty() ? 0 : 1;
  std::size_t start = 0;
  for (std::size_t k = 1; k <= rows.size(); ++k) {
    if (k < rows.size() && rows[k] == rows[k - 1] + 1) continue;
    if (k - start > best_length) {
      best_start = start;
      best_length = k - start;
    }
    start = k;
  }
  best_length = std::min(best_length, most);
  return {rows.begin() + static_cast<std::ptrdiff_t>(best_start),
          rows.begin() + static_cast<std::ptrdiff_t>(best_start + best_length)};
}

}  // namespace pecheck::validate
