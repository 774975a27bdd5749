// The AVX-512 rounding routes of unit_rounding_avx512.hpp, rounding plain
// arrays, for unit_rounding_test.cpp. In a native build this file has the
// build's flags, as the test has. In a portable build it alone gets the
// x86_64_v4 variant's (lib/tests/CMakeLists.txt), the routes the fast path
// runs on such a CPU, while the test is compiled for the baseline and calls
// it only where the CPU runs the variant; so it uses nothing but the
// intrinsics and plain arrays, as an inline function of the standard library
// compiled here could be the copy the linker keeps for the baseline code too.
#include "unit_rounding_avx512_probe.hpp"

// GCC 12's false positive on its own AVX-512 headers (an all-ones mask's
// pass-through operand, never read), as in narrow_fill.cpp.
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#pragma GCC diagnostic ignored "-Wuninitialized"
#endif
#include "unit_rounding_avx512.hpp"

#if PECHECK_UNIT_ROUNDING_AVX512

namespace pecheck::testing {

void avx512_probe_round(const double* lanes, const double* other, VectorRoundings& out) {
  const __m512d v = _mm512_loadu_pd(lanes);
  const __m512d w = _mm512_loadu_pd(other);
  _mm_storeu_si128(reinterpret_cast<__m128i*>(out.float16), avx512::float16_bits(v));
  _mm_storeu_si128(reinterpret_cast<__m128i*>(out.bfloat16), avx512::bfloat16_bits(v));
  _mm256_storeu_si256(reinterpret_cast<__m256i*>(out.float16_pairs), avx512::float16_bits_interleaved(v, w));
  _mm256_storeu_si256(reinterpret_cast<__m256i*>(out.bfloat16_pairs), avx512::bfloat16_bits_interleaved(w, v));
  __m128i eight = _mm_set1_epi16(0x7fc1);
  __m128i other_eight = _mm_set1_epi16(0x7fc1);
  __m256i sixteen = _mm256_set1_epi16(0x7fc1);
  out.normal_taken = avx512::bfloat16_bits_normal(v, w, eight, other_eight);
  out.normal_pairs_taken = avx512::bfloat16_bits_interleaved_normal(v, w, sixteen);
  _mm_storeu_si128(reinterpret_cast<__m128i*>(out.bfloat16_normal), eight);
  _mm_storeu_si128(reinterpret_cast<__m128i*>(out.bfloat16_normal_other), other_eight);
  _mm256_storeu_si256(reinterpret_cast<__m256i*>(out.bfloat16_normal_pairs), sixteen);
}

}  // namespace pecheck::testing

#endif
