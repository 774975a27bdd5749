// A row of kernel values, indexed by frequency, written into a rotary cache's
// columns (the layout's column -> frequency map, taken once), each value
// rounded once to the cache's format, the rounding chosen once per row.
// Without an attention factor that is a plain conversion in the format's own
// type (static_cast to float rounds to nearest even; half_bits.hpp's
// converters are tested bit for bit against round_to_format); with one, the
// exact product v a is a double-double, rounded once by round_pair.
#pragma once

#include <cstdint>
#include <vector>

#include "pecheck/half_bits.hpp"
#include "pecheck/rotary_cache.hpp"
#include "round_pair.hpp"

namespace pecheck {

class RotaryRowStore {
 public:
  // factor: the attention factor the values are multiplied by (1: none).
  RotaryRowStore(const RotaryConvention& convention, double factor, RotaryCache& cache)
      : factor_(factor), format_(format_of(cache.cos.format)), cache_(cache) {
    const std::int64_t cols = rotary_columns(convention);
    column_frequency_.resize(static_cast<std::size_t>(cols));
    for (std::int64_t c = 0; c < cols; ++c) {
      column_frequency_[static_cast<std::size_t>(c)] = rotary_column_frequency(convention, c);
    }
  }

  // Row r from cos_row[i] and sin_row[i], i the frequency. Rows may be
  // stored from several threads at once (each writes its own row).
  void store(std::int64_t r, const double* cos_row, const double* sin_row) {
    if (factor_ != 1.0) {
      for (std::size_t c = 0; c < column_frequency_.size(); ++c) {
        const auto i = static_cast<std::size_t>(column_frequency_[c]);
        const auto column = static_cast<std::int64_t>(c);
        cache_.cos.set(r, column, round_pair(two_prod(cos_row[i], factor_), format_));
        cache_.sin.set(r, column, round_pair(two_prod(sin_row[i], factor_), format_));
      }
      return;
    }
    switch (cache_.cos.format) {
      case FormatId::float64:
        typed(r, cos_row, sin_row, cache_.cos.storage<double>().data(), cache_.sin.storage<double>().data(),
              [](double v) { return v; });
        break;
      case FormatId::float32:
        typed(r, cos_row, sin_row, cache_.cos.storage<float>().data(), cache_.sin.storage<float>().data(),
              [](double v) { return static_cast<float>(v); });
        break;
      case FormatId::float16:
        typed(r, cos_row, sin_row, cache_.cos.storage<std::uint16_t>().data(),
              cache_.sin.storage<std::uint16_t>().data(), [](double v) { return round_to_float16_bits(v); });
        break;
      case FormatId::bfloat16:
        typed(r, cos_row, sin_row, cache_.cos.storage<std::uint16_t>().data(),
              cache_.sin.storage<std::uint16_t>().data(), [](double v) { return round_to_bfloat16_bits(v); });
        break;
    }
  }

 private:
  template <typename T, typename Round>
  void typed(std::int64_t r, const double* cos_row, const double* sin_row, T* cos_out, T* sin_out,
             const Round& round) {
    const auto cols = static_cast<std::int64_t>(column_frequency_.size());
    for (std::int64_t c = 0; c < cols; ++c) {
      const auto i = static_cast<std::size_t>(column_frequency_[static_cast<std::size_t>(c)]);
      cos_out[r * cols + c] = round(cos_row[i]);
      sin_out[r * cols + c] = round(sin_row[i]);
    }
  }

  double factor_;
  const Format& format_;
  RotaryCache& cache_;
  std::vector<std::int64_t> column_frequency_;
};

}  // namespace pecheck
