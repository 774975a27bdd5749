#include "rotary_fit_rows.hpp"

#include "detection_kernels.hpp"
#include "rotary_layout.hpp"

namespace pecheck::validate {

namespace {

constexpr std::int64_t lanes = frequency_lanes;

template <typename T>
void copy_group(const Table& cos, const Table& sin, Table& out, std::int64_t first_column, std::int64_t step,
                std::int64_t count) {
  const T* c = cos.storage<T>().data();
  const T* s = sin.storage<T>().data();
  T* o = out.storage<T>().data();
  // The group's values are a few bytes of each row, rows a cache line or
  // more apart: asked for some rows ahead, not waited on row by row.
  constexpr std::int64_t ahead = 16;
  for (std::int64_t r = 0; r < out.rows; ++r) {
    const std::int64_t in = r * cos.cols + first_column;
    if (r + ahead < out.rows) {
      __builtin_prefetch(s + in + ahead * cos.cols);
      __builtin_prefetch(c + in + ahead * cos.cols);
    }
    T* row = o + r * out.cols;
    for (std::int64_t l = 0; l < count; ++l) {
      row[l] = s[in + l * step];
      row[lanes + l] = c[in + l * step];
    }
  }
}

}  // namespace

RotaryFitRows::RotaryFitRows(const Table& cos, const Table& sin, RotaryLayout layout, std::int64_t frequencies,
                             std::int64_t rows)
    : cos_(cos), sin_(sin), layout_(layout), rows_(rows) {
  groups_.resize(static_cast<std::size_t>((frequencies + lanes - 1) / lanes));
  for (std::int64_t i = 0; i < frequencies; ++i) columns_.push_back({i, i % lanes, lanes + i % lanes});
}

const Table& RotaryFitRows::group(std::size_t first, std::size_t count) {
  const auto i0 = static_cast<std::int64_t>(first);
  const auto n = static_cast<std::int64_t>(count);
  const std::int64_t column = frequency_column(layout_, cos_.cols, i0);
  const std::int64_t step = n > 1 ? frequency_column(layout_, cos_.cols, i0 + 1) - column : 1;
  Table& out = groups_[first / static_cast<std::size_t>(lanes)];
  const FormatId format = cos_.format == sin_.format ? cos_.format : FormatId::float64;
  // The lanes past the last frequency of a short group are never read.
  out = make_uninitialized_table(rows_, 2 * lanes, format);
  if (cos_.format != sin_.format) {
    // cos and sin in different formats: each value as the double at() reads.
    for (std::int64_t r = 0; r < rows_; ++r) {
      for (std::int64_t l = 0; l < n; ++l) {
        out.set(r, l, sin_.at(r, column + l * step));
        out.set(r, lanes + l, cos_.at(r, column + l * step));
      }
    }
    return out;
  }
  switch (format) {
    case FormatId::float64:
      copy_group<double>(cos_, sin_, out, column, step, n);
      break;
    case FormatId::float32:
      copy_group<float>(cos_, sin_, out, column, step, n);
      break;
    case FormatId::float16:
    case FormatId::bfloat16:
      copy_group<std::uint16_t>(cos_, sin_, out, column, step, n);
      break;
  }
  return out;
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
