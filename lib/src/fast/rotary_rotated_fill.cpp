#include "rotary_rotated_fill.hpp"

// GCC 12 reports its own AVX-512 headers as reading an uninitialised value
// once they are inlined here (rotary_rows_avx512.hpp): the same false
// positive as in narrow_fill.cpp.
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#pragma GCC diagnostic ignored "-Wuninitialized"
#endif

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <vector>

#include "pecheck/double_double.hpp"
#include "pecheck/parallel_for.hpp"
#include "rotary_rows_avx512.hpp"
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

// The rotation of RotatedPairRows::at and round_row's conversion in one
// pass, for a row of real frequencies only (no padding lanes) without an
// attention factor: the same operations in the same order as at() (GCC's
// vector extension, no contraction), each double converted to float
// (round to nearest even), so the same bits without the pair row in memory.
// Returns the smallest product_magnitude_bits: if it fails the check, the
// row is taken from at() instead (rare: about 2^-13.7 per pair and row).
std::uint64_t rotate_and_round(const double* __restrict anchor, const double* __restrict step, std::int64_t padded,
                               float* __restrict sin_values, float* __restrict cos_values) {
  using Lanes = double __attribute__((vector_size(pair_block * sizeof(double))));
  using FloatLanes = float __attribute__((vector_size(pair_block * sizeof(float))));
  using LaneBits = std::uint64_t __attribute__((vector_size(pair_block * sizeof(double))));
  const auto load = [](Lanes& v, const double* from) { std::memcpy(&v, from, sizeof v); };
  LaneBits least_lanes = ~LaneBits{};
  const LaneBits magnitude = ~LaneBits{} >> 1;
  for (std::int64_t k = 0; k < padded; k += pair_block) {
    Lanes anchor_sin, anchor_cos, step_sin, step_cos;
    load(anchor_sin, anchor + 2 * k);
    load(anchor_cos, anchor + 2 * k + pair_block);
    load(step_sin, step + 2 * k);
    load(step_cos, step + 2 * k + pair_block);
    const Lanes s = anchor_sin * step_cos + anchor_cos * step_sin;
    const Lanes c = anchor_cos * step_cos - anchor_sin * step_sin;
    const FloatLanes sin_rounded = __builtin_convertvector(s, FloatLanes);
    const FloatLanes cos_rounded = __builtin_convertvector(c, FloatLanes);
    std::memcpy(sin_values + k, &sin_rounded, sizeof sin_rounded);
    std::memcpy(cos_values + k, &cos_rounded, sizeof cos_rounded);
    const Lanes product = s * c;
    LaneBits bits;
    std::memcpy(&bits, &product, sizeof bits);
    bits &= magnitude;
    least_lanes = bits < least_lanes ? bits : least_lanes;
  }
  std::uint64_t least = ~std::uint64_t{0};
  for (std::int64_t l = 0; l < pair_block; ++l) least = std::min(least, static_cast<std::uint64_t>(least_lanes[l]));
  return least;
}

#if PECHECK_UNIT_ROUNDING_AVX512
// The row written straight to the tables (rotary_rows_avx512.hpp).
std::uint64_t rotate_streamed(RotaryLayout layout, const RotatedPairRows::Operands& rotated, std::int64_t n,
                              float* sin_row, float* cos_row) {
  switch (layout) {
    case RotaryLayout::rotate_half:
      return avx512::rotate_rotary_row<RotaryLayout::rotate_half>(rotated.anchor, rotated.step, n, sin_row, cos_row);
    case RotaryLayout::interleaved:
      return avx512::rotate_rotary_row<RotaryLayout::interleaved>(rotated.anchor, rotated.step, n, sin_row, cos_row);
    case RotaryLayout::complex_form:
      break;
  }
  return avx512::rotate_rotary_row<RotaryLayout::complex_form>(rotated.anchor, rotated.step, n, sin_row, cos_row);
}
#endif

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
  // Rows rotated and rounded in one pass (rotate_and_round): without an
  // attention factor (a product to round as a double-double) and padding
  // lanes (whose zero sin fails the check on every row).
  const bool fused = attention_factor == 1.0 && n == turns.padded;
#if PECHECK_UNIT_ROUNDING_AVX512
  // ... and with AVX-512 streamed straight to the tables.
  const bool direct = fused && streaming && avx512::rotary_row_streams(n, cols, sin_table, cos_table);
#else
  const bool direct = false;
#endif
  parallel_for(workers, [&](int worker) {
    RotatedPairRows pair_rows(turns, table, n);
    std::vector<float> sin_values(static_cast<std::size_t>(turns.padded));
    std::vector<float> cos_values(sin_values.size());
    LineAlignedBuffer<float> cos_row(streaming ? static_cast<std::size_t>(cols) : 0);
    LineAlignedBuffer<float> sin_row(streaming ? static_cast<std::size_t>(cols) : 0);
    const std::int64_t first = rows * worker / workers;
    const std::int64_t last = rows * (worker + 1) / workers;
    for (std::int64_t r = first; r < last; ++r) {
      const std::int64_t position = first_position + r;
      bool rounded = false;
      if (fused) {
        const RotatedPairRows::Operands rotated = pair_rows.operands(position);
        if (rotated.step != nullptr) {
#if PECHECK_UNIT_ROUNDING_AVX512
          if (direct) {
            const std::uint64_t least =
                rotate_streamed(convention.layout, rotated, n, sin_table + r * cols, cos_table + r * cols);
            if (!any_must_recompute(least)) continue;
            // The row is written again below, over its streamed stores.
            stream_fence();
          }
#endif
          rounded = !direct && !any_must_recompute(rotate_and_round(rotated.anchor, rotated.step, n,
                                                                    sin_values.data(), cos_values.data()));
        }
      }
      if (!rounded) {
        round_row(pair_rows.at(position), turns.padded, attention_factor, sin_values.data(), cos_values.data());
      }
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
