// float16 and bfloat16 rounding of eight doubles at a time with AVX-512,
// for builds that have it (PECHECK_UNIT_ROUNDING_AVX512 is then 1): the same
// bits as unit_interval_float16_bits / unit_interval_bfloat16_bits
// (unit_rounding.hpp) in about a third of the instructions, using the
// hardware's conversions.
//
// Why it is exact. The hardware has no double -> float16 conversion, and
// converting double -> float -> float16 with round-to-nearest twice is
// wrong when the first rounding lands on a float16 midpoint. Rounding to
// odd first is not: y = RO(x) to float (truncate, then set the last bit if
// anything was dropped) keeps 24 significant bits, at least two more than
// float16's 11 (or bfloat16's 8), and then RN(y) = RN(x) (Boldo and
// Melquiond, "Emulation of FMA and correctly rounded sums: proved algorithms
// using rounding to odd", IEEE TC 2008, theorem 1). The truncation is the
// conversion instruction with its rounding mode embedded (no global mode is
// touched); the second step is the hardware's float -> float16 conversion,
// or for bfloat16 the usual integer round-to-nearest-even on the float's
// bits (exact for every finite float, subnormals included, as bfloat16 is
// float with 16 bits dropped). The subnormals come out right too: at every
// magnitude float's spacing is at least four times finer than either
// format's (down in float's own subnormals, 2^-149 against bfloat16's 2^-133).
#pragma once

#if defined(__AVX512F__) && defined(__AVX512VL__) && defined(__AVX512BW__) && defined(__AVX512DQ__)
#define PECHECK_UNIT_ROUNDING_AVX512 1

#include <immintrin.h>

#include <cstdint>

namespace pecheck::avx512 {

// x rounded to odd at float precision (see above).
inline __m256 round_to_odd_float(__m512d x) {
  const __m256 truncated = _mm512_cvt_roundpd_ps(x, _MM_FROUND_TO_ZERO | _MM_FROUND_NO_EXC);
  const __mmask8 inexact = _mm512_cmp_pd_mask(_mm512_cvtps_pd(truncated), x, _CMP_NEQ_UQ);
  const __m256i bits = _mm256_castps_si256(truncated);
  return _mm256_castsi256_ps(_mm256_mask_or_epi32(bits, inexact, bits, _mm256_set1_epi32(1)));
}

// Round to nearest even from float to bfloat16, on the float's bits.
inline __m512i bfloat16_bits_from_float(__m512i bits) {
  const __m512i lowest_kept = _mm512_and_si512(_mm512_srli_epi32(bits, 16), _mm512_set1_epi32(1));
  return _mm512_srli_epi32(_mm512_add_epi32(bits, _mm512_add_epi32(_mm512_set1_epi32(0x7fff), lowest_kept)), 16);
}
inline __m256i bfloat16_bits_from_float(__m256i bits) {
  const __m256i lowest_kept = _mm256_and_si256(_mm256_srli_epi32(bits, 16), _mm256_set1_epi32(1));
  return _mm256_srli_epi32(_mm256_add_epi32(bits, _mm256_add_epi32(_mm256_set1_epi32(0x7fff), lowest_kept)), 16);
}

// a0 b0 a1 b1 ... a7 b7.
inline __m512 interleave(__m256 a, __m256 b) {
  const __m512i order = _mm512_set_epi32(23, 7, 22, 6, 21, 5, 20, 4, 19, 3, 18, 2, 17, 1, 16, 0);
  return _mm512_permutex2var_ps(_mm512_castps256_ps512(a), order, _mm512_castps256_ps512(b));
}

// The bits of the formats for two groups of eight doubles side by side
// (a0 b0 a1 b1 ... a7 b7: an interleaved layout's sin and cos), and for one
// group of eight.
inline __m256i float16_bits_interleaved(__m512d a, __m512d b) {
  const __m512 odd = interleave(round_to_odd_float(a), round_to_odd_float(b));
  return _mm512_cvtps_ph(odd, _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC);
}

inline __m256i bfloat16_bits_interleaved(__m512d a, __m512d b) {
  const __m512 odd = interleave(round_to_odd_float(a), round_to_odd_float(b));
  return _mm512_cvtepi32_epi16(bfloat16_bits_from_float(_mm512_castps_si512(odd)));
}

inline __m128i float16_bits(__m512d x) {
  return _mm256_cvtps_ph(round_to_odd_float(x), _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC);
}

inline __m128i bfloat16_bits(__m512d x) {
  return _mm256_cvtepi32_epi16(bfloat16_bits_from_float(_mm256_castps_si256(round_to_odd_float(x))));
}

// A faster bfloat16 route for values known to be 0 or at least 2^-126 in
// magnitude (normal in float), which is all a checked rotated row keeps:
// round to float to nearest (one instruction), then to bfloat16 to nearest
// even. Rounding twice is wrong only when the float lands exactly on a
// bfloat16 midpoint: the midpoints are floats, and rounding to float is
// monotone, so a float f that is not a midpoint lies strictly between the
// same two midpoints as x, and both round to the same bfloat16. A midpoint
// shows in the float's bits (the 16 dropped ones are exactly 0x8000), and
// then, rarely (2^-16 per value), the exact route above is taken. With no
// midpoint among the floats, nearest even is nearest: add half the last kept
// bit's weight (0x8000) to the float's bits and drop the 16 low ones (sign
// and magnitude, so the same for negative values; a carry into the exponent
// gives the next binade's first value, as it should). One addition per
// float where bfloat16_bits_from_float takes four, and the 16 kept bits of
// two groups of floats go out together: for interleaved layouts as the two
// halves of 32-bit lanes, for the others gathered by one permutation; no
// interleaving of the floats, no narrowing (vpmovdw). On this project's
// AVX-512 machine (AMD Zen 4) the bfloat16 table (8192 x 1024, one thread)
// took 2.8 ms of CPU time against 3.15 with bfloat16_bits_from_float in the
// portable build's x86_64_v4 variant, and 2.35 against 2.47 in the native
// build with the AVX512_BF16 conversion (vcvtneps2bf16) it used before
// (docs/performance.md). Each returns false, leaving its output untouched,
// when a midpoint was met.
//
// Which of eight floats' 16 low bits (the even 16-bit words) are a bfloat16
// midpoint's 0x8000, as a mask of the words.
inline __mmask16 bfloat16_midpoints(__m256i float_bits) {
  return _mm256_mask_cmpeq_epi16_mask(0x5555, float_bits, _mm256_set1_epi16(static_cast<short>(0x8000)));
}

// The bits of two groups of eight doubles rounded to float to nearest, with
// half the last kept bit's weight added (see above), or false when a
// midpoint is among them: one test and one branch for both.
inline bool bfloat16_rounded_halves(__m512d a, __m512d b, __m256i& a_rounded, __m256i& b_rounded) {
  const __m256i a_bits = _mm256_castps_si256(_mm512_cvtpd_ps(a));
  const __m256i b_bits = _mm256_castps_si256(_mm512_cvtpd_ps(b));
  if ((bfloat16_midpoints(a_bits) | bfloat16_midpoints(b_bits)) != 0) return false;
  const __m256i half = _mm256_set1_epi32(0x8000);
  a_rounded = _mm256_add_epi32(a_bits, half);
  b_rounded = _mm256_add_epi32(b_bits, half);
  return true;
}

// a0 b0 a1 b1 ... a7 b7. Lane k: a_k's bfloat16 in the low 16 bits, b_k's in
// the high 16.
inline bool bfloat16_bits_interleaved_normal(__m512d a, __m512d b, __m256i& out) {
  __m256i a_rounded;
  __m256i b_rounded;
  if (!bfloat16_rounded_halves(a, b, a_rounded, b_rounded)) return false;
  out = _mm256_or_si256(_mm256_srli_epi32(a_rounded, 16),
                        _mm256_and_si256(b_rounded, _mm256_set1_epi32(static_cast<int>(0xffff0000u))));
  return true;
}

// a0 ... a7 into a_out, b0 ... b7 into b_out: the high 16-bit words of both,
// gathered by one permutation.
inline bool bfloat16_bits_normal(__m512d a, __m512d b, __m128i& a_out, __m128i& b_out) {
  __m256i a_rounded;
  __m256i b_rounded;
  if (!bfloat16_rounded_halves(a, b, a_rounded, b_rounded)) return false;
  const __m256i high_words = _mm256_setr_epi16(1, 3, 5, 7, 9, 11, 13, 15, 17, 19, 21, 23, 25, 27, 29, 31);
  const __m256i both = _mm256_permutex2var_epi16(a_rounded, high_words, b_rounded);
  a_out = _mm256_castsi256_si128(both);
  b_out = _mm256_extracti128_si256(both, 1);
  return true;
}

}  // namespace pecheck::avx512

#else
#define PECHECK_UNIT_ROUNDING_AVX512 0
#endif
