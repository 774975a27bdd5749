#include "rotary_twin_columns.hpp"

#include <algorithm>

namespace pecheck::validate {

TwinColumns::TwinColumns(const RotaryConvention& convention, std::int64_t cols) {
  if (cols != rotary_columns(convention) || cols % 2 != 0) return;
  const auto n = static_cast<std::size_t>(cols / 2);
  // Each frequency's columns in order; a third column, or one alone, and
  // nothing is twinned.
  std::vector<std::vector<std::size_t>> columns_of(n);
  std::vector<std::size_t> frequency_of(static_cast<std::size_t>(cols));
  for (std::int64_t c = 0; c < cols; ++c) {
    const std::int64_t f = rotary_column_frequency(convention, c);
    if (f < 0 || static_cast<std::size_t>(f) >= n) return;
    columns_of[static_cast<std::size_t>(f)].push_back(static_cast<std::size_t>(c));
    frequency_of[static_cast<std::size_t>(c)] = static_cast<std::size_t>(f);
  }
  for (const std::vector<std::size_t>& columns : columns_of) {
    if (columns.size() != 2) return;
  }
  // The entries in the order of their columns: among a row's entries of
  // equal figures the accumulator keeps the first, which must be the one of
  // the smallest key.
  std::sort(columns_of.begin(), columns_of.end());
  halves_ = true;
  frequency_order_ = true;
  for (std::size_t e = 0; e < n; ++e) {
    first_.push_back(columns_of[e][0]);
    twin_.push_back(columns_of[e][1]);
    frequency_.push_back(frequency_of[first_[e]]);
    halves_ &= first_[e] == e && twin_[e] == n + e;
    frequency_order_ &= frequency_[e] == e;
  }
  for (const std::size_t c : first_) entry_column_.push_back(static_cast<std::int64_t>(c));
  for (const std::size_t c : first_) entry_column_.push_back(cols + static_cast<std::int64_t>(c));
}

}  // namespace pecheck::validate
