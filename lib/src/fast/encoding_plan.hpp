// What the fast path knows about a (convention, width) before it looks at a
// row: each frequency in turns split for the kernel (split_frequencies.hpp),
// and where each frequency's sin and cos go in a row. Filling rows is the hot
// loop.
//
// Rows are independent: fill_rows() on any block of rows gives the same bits
// as the same rows of a larger call, whatever the thread count, so a caller
// may also split a table's rows itself (one plan, shared read-only).
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <vector>

#include "narrow_fill.hpp"
#include "split_frequencies.hpp"
#include "pecheck/convention.hpp"

namespace pecheck {

// A run of columns of one kind fed by consecutive frequencies at a constant
// column stride: an interleaved layout has two runs of stride 2, a halves
// layout two of stride 1.
struct ColumnRun {
  ColumnKind kind = ColumnKind::sin;
  std::int64_t first_column = 0;
  std::int64_t column_stride = 1;
  std::int64_t first_frequency = 0;
  std::int64_t count = 0;
};

// The runs covering every sin and cos column of column_layout(convention, d),
// built from the layout's data; zero columns are not in any run.
std::vector<ColumnRun> column_runs(const std::vector<ColumnSpec>& layout);

class EncodingPlan {
 public:
  // Throws ConventionError when the convention cannot produce width dim.
  EncodingPlan(const Convention& convention, std::int64_t dim);

  std::int64_t dim() const { return dim_; }

  // Rows [first_row, first_row + row_count) of the table whose row r holds the
  // convention's row r + row_offset, row-major into out (row_count * dim
  // values), with the rows split across `threads` threads. The caller has
  // checked the positions (check_request).
  //
  // float64 comes from the kernel (sincos_turns.cpp) directly.
  void fill_rows(std::int64_t first_row, std::int64_t row_count, std::int64_t row_offset, std::span<double> out,
                 int threads = 1) const;
  // float32, float16 and bfloat16 round the rotated rows (rotated_rows.cpp)
  // once; fill_rows_narrow_source gives those doubles themselves.
  void fill_rows(std::int64_t first_row, std::int64_t row_count, std::int64_t row_offset, std::span<float> out,
                 int threads = 1) const;
  void fill_rows_float16(std::int64_t first_row, std::int64_t row_count, std::int64_t row_offset,
                         std::span<std::uint16_t> out, int threads = 1) const;
  void fill_rows_bfloat16(std::int64_t first_row, std::int64_t row_count, std::int64_t row_offset,
                          std::span<std::uint16_t> out, int threads = 1) const;
  void fill_rows_narrow_source(std::int64_t first_row, std::int64_t row_count, std::int64_t row_offset,
                               std::span<double> out, int threads = 1) const;

 private:
  template <class Output, class Value>
  void fill_narrow(std::int64_t first_row, std::int64_t row_count, std::int64_t row_offset, std::span<Value> out,
                   int threads) const;
  void fill_kernel_rows(std::int64_t first_row, std::int64_t row_count, std::int64_t row_offset, double* out) const;

  Convention convention_;
  std::int64_t dim_ = 0;
  std::shared_ptr<const SplitFrequencies> frequencies_;
  std::vector<ColumnRun> runs_;
  std::vector<std::int64_t> zero_columns_;
  NarrowLayout narrow_layout_;
};

}  // namespace pecheck
