#include "rotary_fit_rows.hpp"

#include <algorithm>

#include "detection_kernels.hpp"
#include "rotary_layout.hpp"

namespace pecheck::validate {

namespace {

constexpr std::int64_t lanes = frequency_lanes;
constexpr std::int64_t line_bytes = 64;

// Columns a group takes in each row: its sin and cos lanes, padded to whole
// cache lines (a 16-bit group's 32 bytes to 64).
std::int64_t group_columns(FormatId format) {
  return std::max<std::int64_t>(2 * lanes, line_bytes / storage_bytes(format));
}

FormatId fit_format(const Table& cos, const Table& sin) {
  return cos.format == sin.format ? cos.format : FormatId::float64;
}

template <typename T>
void copy_group(const Table& cos, const Table& sin, Table& out, std::int64_t first_column, std::int64_t step,
                std::int64_t count, std::int64_t out_column) {
  const T* c = cos.storage<T>().data();
  const T* s = sin.storage<T>().data();
  T* o = out.storage<T>().data();
  for (std::int64_t r = 0; r < out.rows; ++r) {
    const std::int64_t in = r * cos.cols + first_column;
    T* row = o + r * out.cols + out_column;
    for (std::int64_t l = 0; l < count; ++l) {
      row[l] = s[in + l * step];
      row[lanes + l] = c[in + l * step];
    }
  }
}

}  // namespace

RotaryFitRows::RotaryFitRows(const Table& cos, const Table& sin, RotaryLayout layout, std::int64_t frequencies,
                             std::int64_t rows)
    : cos_(cos), sin_(sin), layout_(layout) {
  const FormatId format = fit_format(cos, sin);
  const std::int64_t width = group_columns(format);
  const std::int64_t groups = (frequencies + lanes - 1) / lanes;
  table_ = make_uninitialized_table(rows, groups * width, format);
  for (std::int64_t i = 0; i < frequencies; ++i) {
    const std::int64_t column = (i / lanes) * width + i % lanes;
    columns_.push_back({i, column, column + lanes});
  }
}

void RotaryFitRows::fill(std::size_t first, std::size_t count) {
  const auto i0 = static_cast<std::int64_t>(first);
  const auto n = static_cast<std::int64_t>(count);
  const std::int64_t column = frequency_column(layout_, cos_.cols, i0);
  const std::int64_t step = n > 1 ? frequency_column(layout_, cos_.cols, i0 + 1) - column : 1;
  const std::int64_t out_column = columns_[first].sin_column;
  switch (table_.format) {
    case FormatId::float64:
      if (cos_.format != FormatId::float64 || sin_.format != FormatId::float64) {
        // cos and sin in different formats: each value as the double at() reads.
        for (std::int64_t r = 0; r < table_.rows; ++r) {
          for (std::int64_t l = 0; l < n; ++l) {
            table_.set(r, out_column + l, sin_.at(r, column + l * step));
            table_.set(r, out_column + lanes + l, cos_.at(r, column + l * step));
          }
        }
        return;
      }
      return copy_group<double>(cos_, sin_, table_, column, step, n, out_column);
    case FormatId::float32:
      return copy_group<float>(cos_, sin_, table_, column, step, n, out_column);
    case FormatId::float16:
    case FormatId::bfloat16:
      return copy_group<std::uint16_t>(cos_, sin_, table_, column, step, n, out_column);
  }
}

Table rotary_row0_pairs(const Table& cos, const Table& sin, RotaryLayout layout, std::int64_t frequencies) {
  Table pairs = make_table(1, 2 * frequencies, FormatId::float64);
  for (std::int64_t i = 0; i < frequencies; ++i) {
    const std::int64_t c = frequency_column(layout, cos.cols, i);
    pairs.set(0, i, sin.at(0, c));
    pairs.set(0, frequencies + i, cos.at(0, c));
  }
  return pairs;
}

}  // namespace pecheck::validate
