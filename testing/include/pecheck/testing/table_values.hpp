// Tables from and to lists of doubles, for tests that state small tables
// literally or compare whole tables. Production code reads tables through
// views; these helpers exist so a test can say {1.5, -0.0, 3.0}.
#pragma once

#include <cstdint>
#include <initializer_list>
#include <vector>

#include "pecheck/table.hpp"

namespace pecheck::testing {

// The view's values, row after row.
inline std::vector<double> values_of(const TableView& view) { return table_doubles(view); }

// Entry k of the view, counting row after row.
inline double flat_at(const TableView& view, std::int64_t k) { return view.at(k / view.cols(), k % view.cols()); }
inline void flat_set(Table& table, std::int64_t k, double x) { table.set(k / table.cols, k % table.cols, x); }

// A rows x cols table of format holding values (row after row), each rounded to the format.
inline Table table_of(std::int64_t rows, std::int64_t cols, FormatId format, const std::vector<double>& values) {
  Table table = make_table(rows, cols, format);
  for (std::int64_t k = 0; k < rows * cols && k < static_cast<std::int64_t>(values.size()); ++k) {
    flat_set(table, k, values[static_cast<std::size_t>(k)]);
  }
  return table;
}

// Every entry set from next(), row after row.
template <typename Next>
void fill_table(Table& table, Next next) {
  for (std::int64_t k = 0; k < table.rows * table.cols; ++k) flat_set(table, k, next());
}

}  // namespace pecheck::testing
