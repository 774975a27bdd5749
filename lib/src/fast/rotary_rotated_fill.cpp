#include "rotary_rotated_fill.hpp"

#include <algorithm>
#include <vector>

#include "pecheck/double_double.hpp"
#include "pecheck/parallel_for.hpp"
#include "round_pair.hpp"
#include "stream_store.hpp"

namespace pecheck {

namespace {

// A row's float32 values in frequency order, from a pair row: each value
// rounded once. Without an attention factor a conversion (round to nearest
// even); with one, the exact product v a (two_prod) rounded by round_pair,
// whose result is a float32 value, so the conversion after it is exact.
void round_row(const double* pairs, std::int64_t padded, double attention_factor, float* __restrict sin_values,
               float* __restrict cos_values) {
  if (attention_factor == 1.0) {
    for (std::int64_t block = 0; block < padded; block += pair_block) {
      for (std::int64_t l = 0; l < pair_block; ++l) {
        sin_values[block + l] = static_cast<float>(pairs[2 * block + l]);
        cos_values[block + l] = static_cast<float>(pairs[2 * block + pair_block + l]);
      }
    }
    return;
  }
  const Format& float32 = format_of(FormatId::float32);
  for (std::int64_t i = 0; i < padded; ++i) {
    sin_values[i] = static_cast<float>(round_pair(two_prod(sin_in(pairs, i), attention_factor), float32));
    cos_values[i] = static_cast<float>(round_pair(two_prod(cos_in(pairs, i), attention_factor), float32));
  }
}

// The n values of frequencies 0..n-1 into a table row, as
// rotary_column_frequency places them (rotary_convention.cpp): columns i and
// i + n (rotate-half), 2i and 2i + 1 (interleaved), i (complex).
void spread_row(RotaryLayout layout, const float* __restrict values, std::int64_t n, float* __restrict row) {
  switch (layout) {
    case RotaryLayout::rotate_half:
      std::copy(values, values + n, row);
      std::copy(values, values + n, row + n);
      return;
    case RotaryLayout::interleaved:
      for (std::int64_t i = 0; i < n; ++i) {
        row[2 * i] = values[i];
        row[2 * i + 1] = values[i];
      }
      return;
    case RotaryLayout::complex_form:
      std::copy(values, values + n, row);
      return;
  }
}

}  // namespace

void fill_rotated_float32(const RotaryConvention& convention, const TurnsView& turns, double attention_factor,
                          std::int64_t first_position, int workers, RotaryCache& cache) {
  const std::int64_t n = rotary_derived(convention).frequencies;
  const std::int64_t rows = cache.cos.rows;
  const std::int64_t cols = cache.cos.cols;
  const RotationTable table(turns);
  float* const cos_table = cache.cos.storage<float>().data();
  float* const sin_table = cache.sin.storage<float>().data();
  // Tables too big for the caches are streamed (stream_store.hpp): each row
  // is spread into a line-aligned buffer that stays in L1 and written out
  // without the read an ordinary store makes of each line. With the tables
  // reused (fast_rotary_cache_into) that read was most of the time left.
  const auto row_bytes = static_cast<std::size_t>(cols) * sizeof(float);
  const bool streaming = worth_streaming(2 * static_cast<std::size_t>(rows) * row_bytes);
  parallel_for(workers, [&](int worker) {
    RotatedPairRows pair_rows(turns, table, n);
    std::vector<float> sin_values(static_cast<std::size_t>(turns.padded));
    std::vector<float> cos_values(sin_values.size());
    LineAlignedBuffer<float> cos_row(streaming ? static_cast<std::size_t>(cols) : 0);
    LineAlignedBuffer<float> sin_row(streaming ? static_cast<std::size_t>(cols) : 0);
    const std::int64_t first = rows * worker / workers;
    const std::int64_t last = rows * (worker + 1) / workers;
    for (std::int64_t r = first; r < last; ++r) {
      round_row(pair_rows.at(first_position + r), turns.padded, attention_factor, sin_values.data(), cos_values.data());
      if (!streaming) {
        spread_row(convention.layout, cos_values.data(), n, cos_table + r * cols);
        spread_row(convention.layout, sin_values.data(), n, sin_table + r * cols);
        continue;
      }
      spread_row(convention.layout, cos_values.data(), n, cos_row.data());
      spread_row(convention.layout, sin_values.data(), n, sin_row.data());
      stream_copy(cos_table + r * cols, cos_row.data(), row_bytes);
      stream_copy(sin_table + r * cols, sin_row.data(), row_bytes);
    }
    if (streaming) stream_fence();
  });
}

}  // namespace pecheck
