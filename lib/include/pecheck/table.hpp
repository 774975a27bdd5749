// A rows-by-columns table of values of one format, row-major.
//
// Read a table through at(r, c) (the value, exactly, as a double) or its
// view(); write it with set(r, c, x), which stores x rounded to the table's
// format (exact when x is a value of the format).
//
// TRANSITIONAL: the values are still held as doubles (`values`); the typed
// storage replaces them. Code outside lib/ must not touch `values`.
#pragma once

#include <cstdint>
#include <vector>

#include "pecheck/format.hpp"

namespace pecheck {

// A read-only window on a table: rows x cols values of one format, row r
// starting stride values after row r - 1. Checks and writers read through it.
class TableView {
 public:
  TableView() = default;
  TableView(FormatId format, std::int64_t rows, std::int64_t cols, std::int64_t stride, const double* data)
      : format_(format), rows_(rows), cols_(cols), stride_(stride), data_(data) {}

  FormatId format() const { return format_; }
  std::int64_t rows() const { return rows_; }
  std::int64_t cols() const { return cols_; }
  std::int64_t stride() const { return stride_; }
  double at(std::int64_t row, std::int64_t col) const { return data_[row * stride_ + col]; }
  // Rows [first, first + count) of this view.
  TableView row_block(std::int64_t first, std::int64_t count) const {
    return TableView(format_, count, cols_, stride_, data_ + first * stride_);
  }

 private:
  FormatId format_ = FormatId::float32;
  std::int64_t rows_ = 0;
  std::int64_t cols_ = 0;
  std::int64_t stride_ = 0;
  const double* data_ = nullptr;
};

struct Table {
  std::int64_t rows = 0;
  std::int64_t cols = 0;
  FormatId format = FormatId::float32;
  std::vector<double> values;  // TRANSITIONAL, see above

  double at(std::int64_t row, std::int64_t col) const { return values[static_cast<std::size_t>(row * cols + col)]; }
  double& at(std::int64_t row, std::int64_t col) { return values[static_cast<std::size_t>(row * cols + col)]; }
  // Stores x rounded to the table's format (round to nearest even).
  void set(std::int64_t row, std::int64_t col, double x) {
    values[static_cast<std::size_t>(row * cols + col)] = round_to_format(x, format_of(format));
  }
  TableView view() const { return TableView(format, rows, cols, cols, values.data()); }
};

// Allocates rows * cols values, throwing ConventionError with the shape in the
// message when the request is impossible (negative, or too large to allocate).
Table make_table(std::int64_t rows, std::int64_t cols, FormatId format);

}  // namespace pecheck
