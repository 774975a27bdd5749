// A float32 rotary cache row rotated, rounded and streamed to the tables in
// one pass, with AVX-512, for builds that have it (rotary_rotated_fill.cpp).
// The pass before it went through three row buffers (the pair row in
// doubles, the rounded values, the spread row) and copied the last one out:
// about three times the instructions of the rotation, which is what kept
// the cache from the write bandwidth the tables' size allows. Here two
// blocks of eight frequencies are rotated (avx512::rotate_block: the same
// operations in the same order as rotate_pair, so the same doubles),
// rounded to nearest by the hardware's conversion (as static_cast<float>)
// and written straight to both tables with 64-byte streaming stores, whole
// cache lines, so nothing is read from memory and the stores drain while
// the next blocks are computed.
#pragma once

#include "narrow_rotation_avx512.hpp"

#if PECHECK_UNIT_ROUNDING_AVX512

#include <cstdint>

#include "pecheck/rotary_convention.hpp"

namespace pecheck::avx512 {

// Whether rotate_rotary_row can write rows of `frequencies` (all of them
// real: no padding lanes) into tables at sin_table and cos_table, `cols`
// floats a row: every store must be a whole aligned line.
inline bool rotary_row_streams(std::int64_t frequencies, std::int64_t cols, const float* sin_table,
                               const float* cos_table) {
  const auto aligned = [](const void* p) { return reinterpret_cast<std::uintptr_t>(p) % 64 == 0; };
  return frequencies % (2 * pair_block) == 0 && (cols * sizeof(float)) % 64 == 0 && aligned(sin_table) &&
         aligned(cos_table);
}

// Row values: sin_row[c] and cos_row[c] for every column c of the layout,
// from the pair rows anchor and step (rotated_rows.hpp) of `frequencies`
// frequencies, rotary_row_streams true. Returns the smallest
// product_magnitude_bits of the row: if it fails the check, the caller
// writes the row again from the recomputed pairs (after stream_fence).
template <RotaryLayout layout>
std::uint64_t rotate_rotary_row(const double* anchor, const double* step, std::int64_t frequencies, float* sin_row,
                                float* cos_row) {
  __m512i smallest_bits = _mm512_set1_epi64(-1);
  // Each value twice, side by side (interleaved: columns 2i and 2i + 1).
  const __m512i twice = _mm512_setr_epi32(0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7);
  for (std::int64_t k = 0; k < frequencies; k += 2 * pair_block) {
    __m512d s_low, c_low, s_high, c_high;
    rotate_block(anchor + 2 * k, step + 2 * k, s_low, c_low, smallest_bits);
    rotate_block(anchor + 2 * (k + pair_block), step + 2 * (k + pair_block), s_high, c_high, smallest_bits);
    const __m256 sin_low = _mm512_cvtpd_ps(s_low);
    const __m256 cos_low = _mm512_cvtpd_ps(c_low);
    const __m256 sin_high = _mm512_cvtpd_ps(s_high);
    const __m256 cos_high = _mm512_cvtpd_ps(c_high);
    if constexpr (layout == RotaryLayout::interleaved) {
      const auto spread = [&](__m256 v) { return _mm512_permutexvar_ps(twice, _mm512_castps256_ps512(v)); };
      _mm512_stream_ps(sin_row + 2 * k, spread(sin_low));
      _mm512_stream_ps(sin_row + 2 * k + 2 * pair_block, spread(sin_high));
      _mm512_stream_ps(cos_row + 2 * k, spread(cos_low));
      _mm512_stream_ps(cos_row + 2 * k + 2 * pair_block, spread(cos_high));
    } else {
      const __m512 sin_line = _mm512_insertf32x8(_mm512_castps256_ps512(sin_low), sin_high, 1);
      const __m512 cos_line = _mm512_insertf32x8(_mm512_castps256_ps512(cos_low), cos_high, 1);
      _mm512_stream_ps(sin_row + k, sin_line);
      _mm512_stream_ps(cos_row + k, cos_line);
      if constexpr (layout == RotaryLayout::rotate_half) {
        _mm512_stream_ps(sin_row + frequencies + k, sin_line);
        _mm512_stream_ps(cos_row + frequencies + k, cos_line);
      }
    }
  }
  return static_cast<std::uint64_t>(_mm512_reduce_min_epu64(smallest_bits));
}

}  // namespace pecheck::avx512

#endif
