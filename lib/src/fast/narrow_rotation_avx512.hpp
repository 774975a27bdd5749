// The hot loops of narrow_fill.cpp written with AVX-512, for builds that
// have it: eight frequencies per step, rotated with the same operations in
// the same order as rotate_pair (so the same doubles), rounded with the
// hardware's conversions (unit_rounding_avx512.hpp), and stored with
// streaming stores when the caller writes straight to a large output, which
// lets the stores drain while the next values are computed instead of in a
// burst at the end of each row.
#pragma once

#include "narrow_fill.hpp"
#include "rotated_rows.hpp"
#include "unit_rounding_avx512.hpp"

#if PECHECK_UNIT_ROUNDING_AVX512

#include <algorithm>
#include <cstdint>
#include <type_traits>

namespace pecheck::avx512 {

inline constexpr bool has_vector_loops = true;

// rotate_pair on one block of eight frequencies (pair rows, rotated_rows.hpp),
// and the running minimum of product_magnitude_bits.
inline void rotate_block(const double* anchor_block, const double* step_block, __m512d& s, __m512d& c,
                         __m512i& smallest_bits) {
  __m512d s0 = _mm512_loadu_pd(anchor_block);
  __m512d c0 = _mm512_loadu_pd(anchor_block + pair_block);
  __m512d sj = _mm512_loadu_pd(step_block);
  __m512d cj = _mm512_loadu_pd(step_block + pair_block);
  // Each operand is used twice, and GCC 12 loaded it again for the second
  // use (a memory operand of the multiplication): eight 64-byte loads a
  // block where four do, and Zen 4 splits each into two. The empty asm makes
  // the loaded values opaque, so they stay in registers: the bfloat16 table
  // on one thread took 2.23 ms of CPU time against 2.32 (portable build,
  // x86_64_v4 variant, docs/performance.md).
#if defined(__GNUC__)
  asm("" : "+v"(s0), "+v"(c0), "+v"(sj), "+v"(cj));
#endif
  s = _mm512_add_pd(_mm512_mul_pd(s0, cj), _mm512_mul_pd(c0, sj));
  c = _mm512_sub_pd(_mm512_mul_pd(c0, cj), _mm512_mul_pd(s0, sj));
  const __m512i magnitude =
      _mm512_and_si512(_mm512_castpd_si512(_mm512_mul_pd(s, c)), _mm512_set1_epi64(0x7fffffffffffffff));
  smallest_bits = _mm512_min_epu64(smallest_bits, magnitude);
}

// Which outputs have vector loops (the doubles themselves go the portable way).
template <class Output>
inline constexpr bool vectorised = std::is_same_v<Output, Float32Output> || std::is_same_v<Output, Float16Output> ||
                                   std::is_same_v<Output, BFloat16Output>;

// The bytes one step stores per destination: the alignment a streaming
// store needs.
template <class Output>
inline constexpr std::size_t interleaved_step_bytes = 16 * sizeof(typename Output::Value);
template <class Output>
inline constexpr std::size_t contiguous_step_bytes = 8 * sizeof(typename Output::Value);

inline void store(float* dest, __m512 v, bool stream) {
  stream ? _mm512_stream_ps(dest, v) : _mm512_storeu_ps(dest, v);
}
inline void store(float* dest, __m256 v, bool stream) {
  stream ? _mm256_stream_ps(dest, v) : _mm256_storeu_ps(dest, v);
}
inline void store(std::uint16_t* dest, __m256i v, bool stream) {
  auto* at = reinterpret_cast<__m256i*>(dest);
  stream ? _mm256_stream_si256(at, v) : _mm256_storeu_si256(at, v);
}
inline void store(std::uint16_t* dest, __m128i v, bool stream) {
  auto* at = reinterpret_cast<__m128i*>(dest);
  stream ? _mm_stream_si128(at, v) : _mm_storeu_si128(at, v);
}

// The two loops are always inlined into their caller's chunk loop
// (narrow_fill.cpp), as GCC does by itself for float32's: left as calls for
// float16 and bfloat16, each chunk of eight blocks paid a call, its
// constants and its horizontal minimum; inlined, the bfloat16 table took 6%
// less CPU time (2.8 to 2.6 ms on one thread, the portable build's
// x86_64_v4 variant, docs/performance.md).
//
// Blocks [0, blocks) of pair rows: dest[2k] = sin, dest[2k + 1] = cos.
// stream: dest is aligned to interleaved_step_bytes and may take streaming
// stores. checked: every value that will be kept is at least 2^-14 in
// magnitude (rotated rows whose small pairs are recomputed and stored over,
// rotated_rows.cpp step 3), so bfloat16 may take the route for floats that
// are normal (unit_rounding_avx512.hpp).
template <class Output>
[[gnu::always_inline]] inline void rotate_interleaved(const double* anchor, const double* step, std::int64_t blocks,
                                                      typename Output::Value* dest, bool stream, bool checked,
                                                      std::uint64_t& smallest) {
  __m512i smallest_bits = _mm512_set1_epi64(-1);
  for (std::int64_t b = 0; b < blocks; ++b) {
    __m512d s;
    __m512d c;
    rotate_block(anchor + 2 * pair_block * b, step + 2 * pair_block * b, s, c, smallest_bits);
    typename Output::Value* out = dest + 2 * pair_block * b;
    if constexpr (std::is_same_v<Output, Float32Output>) {
      store(out, interleave(_mm512_cvtpd_ps(s), _mm512_cvtpd_ps(c)), stream);
    } else if constexpr (std::is_same_v<Output, Float16Output>) {
      store(out, float16_bits_interleaved(s, c), stream);
    } else {
      __m256i bits;
      if (!checked || !bfloat16_bits_interleaved_normal(s, c, bits)) bits = bfloat16_bits_interleaved(s, c);
      store(out, bits, stream);
    }
  }
  smallest = std::min(smallest, static_cast<std::uint64_t>(_mm512_reduce_min_epu64(smallest_bits)));
}

// Blocks [0, blocks): sin_dest[k] = sin, cos_dest[k] = cos. stream: both
// aligned to contiguous_step_bytes. checked: as for rotate_interleaved.
template <class Output>
[[gnu::always_inline]] inline void rotate_contiguous(const double* anchor, const double* step, std::int64_t blocks,
                                                     typename Output::Value* sin_dest, typename Output::Value* cos_dest,
                                                     bool stream, bool checked, std::uint64_t& smallest) {
  __m512i smallest_bits = _mm512_set1_epi64(-1);
  for (std::int64_t b = 0; b < blocks; ++b) {
    __m512d s;
    __m512d c;
    rotate_block(anchor + 2 * pair_block * b, step + 2 * pair_block * b, s, c, smallest_bits);
    const std::int64_t k = pair_block * b;
    if constexpr (std::is_same_v<Output, Float32Output>) {
      store(sin_dest + k, _mm512_cvtpd_ps(s), stream);
      store(cos_dest + k, _mm512_cvtpd_ps(c), stream);
    } else if constexpr (std::is_same_v<Output, Float16Output>) {
      store(sin_dest + k, float16_bits(s), stream);
      store(cos_dest + k, float16_bits(c), stream);
    } else {
      __m128i sin_bits;
      __m128i cos_bits;
      if (!checked || !bfloat16_bits_normal(s, c, sin_bits, cos_bits)) {
        sin_bits = bfloat16_bits(s);
        cos_bits = bfloat16_bits(c);
      }
      store(sin_dest + k, sin_bits, stream);
      store(cos_dest + k, cos_bits, stream);
    }
  }
  smallest = std::min(smallest, static_cast<std::uint64_t>(_mm512_reduce_min_epu64(smallest_bits)));
}

}  // namespace pecheck::avx512

#else

namespace pecheck::avx512 {
inline constexpr bool has_vector_loops = false;
}  // namespace pecheck::avx512

#endif
