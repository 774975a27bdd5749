#include "encoding_plan.hpp"

#include <algorithm>
#include <stdexcept>
#include <string>
#include <utility>

#include "row_blocks.hpp"
#include "sincos_turns.hpp"
#include "split_frequencies.hpp"

namespace pecheck {

namespace {

void check_output_size(std::size_t size, std::int64_t row_count, std::int64_t dim) {
  if (row_count < 0 || size != static_cast<std::size_t>(row_count * dim)) {
    throw std::invalid_argument("fast encoding: the output holds " + std::to_string(size) + " values, expected " +
                                std::to_string(row_count) + " rows x " + std::to_string(dim) + " columns");
  }
}

}  // namespace

std::vector<ColumnRun> column_runs(const std::vector<ColumnSpec>& layout) {
  std::vector<ColumnRun> runs;
  for (const ColumnKind kind : {ColumnKind::sin, ColumnKind::cos}) {
    std::vector<std::pair<std::int64_t, std::int64_t>> entries;  // (frequency, column)
    for (std::size_t c = 0; c < layout.size(); ++c) {
      if (layout[c].kind == kind) entries.emplace_back(layout[c].frequency_index, static_cast<std::int64_t>(c));
    }
    std::sort(entries.begin(), entries.end());
    std::size_t j = 0;
    while (j < entries.size()) {
      ColumnRun run{kind, entries[j].second, 1, entries[j].first, 1};
      const auto continues = [&](std::size_t k) {
        return entries[k].first == entries[k - 1].first + 1 &&
               entries[k].second - entries[k - 1].second == run.column_stride;
      };
      if (j + 1 < entries.size() && entries[j + 1].second > entries[j].second) {
        run.column_stride = entries[j + 1].second - entries[j].second;
      }
      std::size_t k = j + 1;
      while (k < entries.size() && continues(k)) ++k;
      run.count = static_cast<std::int64_t>(k - j);
      runs.push_back(run);
      j = k;
    }
  }
  return runs;
}

EncodingPlan::EncodingPlan(const Convention& convention, std::int64_t dim) : convention_(convention), dim_(dim) {
  const std::vector<ColumnSpec> layout = column_layout(convention, dim);  // checks dim
  runs_ = column_runs(layout);
  narrow_layout_ = narrow_layout(layout);
  for (std::size_t c = 0; c < layout.size(); ++c) {
    if (layout[c].kind == ColumnKind::zero) zero_columns_.push_back(static_cast<std::int64_t>(c));
  }
  frequencies_ = split_frequencies(convention, dim);
}

void EncodingPlan::fill_kernel_rows(std::int64_t first_row, std::int64_t row_count, std::int64_t row_offset,
                                    double* out) const {
  const TurnsView f = frequencies_->view();
  std::vector<double> sin_values(static_cast<std::size_t>(f.padded));
  std::vector<double> cos_values(static_cast<std::size_t>(f.padded));
  for (std::int64_t r = 0; r < row_count; ++r) {
    double* row_out = out + r * dim_;
    const std::int64_t convention_row = first_row + r + row_offset;
    if (is_zero_row(convention_, convention_row)) {
      std::fill(row_out, row_out + dim_, 0.0);
      continue;
    }
    // A negative position is its magnitude's row with sin negated (exactly):
    // the error bound of sincos_turns.cpp, derived for |p| < 2^24, holds as it is.
    const std::int64_t position = position_of_row(convention_, convention_row);
    sincos_turns(position < 0 ? -position : position, f.f1, f.f2, f.f3, f.padded, sin_values.data(), cos_values.data());
    if (position < 0) {
      for (double& s : sin_values) s = -s;
    }
    for (const ColumnRun& run : runs_) {
      const std::vector<double>& values = run.kind == ColumnKind::sin ? sin_values : cos_values;
      for (std::int64_t k = 0; k < run.count; ++k) {
        row_out[run.first_column + k * run.column_stride] = values[static_cast<std::size_t>(run.first_frequency + k)];
      }
    }
    for (const std::int64_t c : zero_columns_) row_out[c] = 0.0;
  }
}

void EncodingPlan::fill_rows(std::int64_t first_row, std::int64_t row_count, std::int64_t row_offset,
                             std::span<double> out, int threads) const {
  check_output_size(out.size(), row_count, dim_);
  for_each_row_block(row_count, threads, [&](std::int64_t first, std::int64_t count) {
    fill_kernel_rows(first_row + first, count, row_offset, out.data() + first * dim_);
  });
}

template <class Output, class Value>
void EncodingPlan::fill_narrow(std::int64_t first_row, std::int64_t row_count, std::int64_t row_offset,
                               std::span<Value> out, int threads) const {
  check_output_size(out.size(), row_count, dim_);
  fill_narrow_rows<Output>(convention_, narrow_layout_, frequencies_->view(), frequencies_->rotations(), first_row,
                           row_count, row_offset, out.data(), threads);
}

void EncodingPlan::fill_rows(std::int64_t first_row, std::int64_t row_count, std::int64_t row_offset,
                             std::span<float> out, int threads) const {
  fill_narrow<Float32Output>(first_row, row_count, row_offset, out, threads);
}

void EncodingPlan::fill_rows_float16(std::int64_t first_row, std::int64_t row_count, std::int64_t row_offset,
                                     std::span<std::uint16_t> out, int threads) const {
  fill_narrow<Float16Output>(first_row, row_count, row_offset, out, threads);
}

void EncodingPlan::fill_rows_bfloat16(std::int64_t first_row, std::int64_t row_count, std::int64_t row_offset,
                                      std::span<std::uint16_t> out, int threads) const {
  fill_narrow<BFloat16Output>(first_row, row_count, row_offset, out, threads);
}

void EncodingPlan::fill_rows_narrow_source(std::int64_t first_row, std::int64_t row_count, std::int64_t row_offset,
                                           std::span<double> out, int threads) const {
  fill_narrow<SourceOutput>(first_row, row_count, row_offset, out, threads);
}

}  // namespace pecheck
