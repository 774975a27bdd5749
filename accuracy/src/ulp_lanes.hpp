// The ULP kernel's lanes (ulp_kernel.cpp): eight doubles and their bits as
// GCC's vector extensions hold them, and a row's entries loaded into them.
// Included by that file alone, compiled once per instruction-set variant.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#if defined(__AVX512F__)
#include <immintrin.h>
#endif

#include "lane_compares.hpp"
#include "pecheck/double_double.hpp"

namespace pecheck::accuracy {
namespace {  // the kernel's own, as in ulp_kernel.cpp

// Eight doubles, and their bits, as GCC's vector extensions hold them: one
// register where the target has 512-bit vectors, four pairs where it has
// SSE2 only; every operation is the scalar one lane by lane.
using Doubles = double __attribute__((vector_size(64)));
using Floats = float __attribute__((vector_size(32)));
using Bits = std::uint64_t __attribute__((vector_size(64)));
using Lanes = std::int64_t __attribute__((vector_size(64)));  // masks: -1 true, 0 false
constexpr std::size_t width = 8;
constexpr std::uint64_t magnitude_bits = 0x7fffffffffffffffULL;

inline double hi_of(const DoubleDouble& x) { return x.hi; }
inline double lo_of(const DoubleDouble& x) { return x.lo; }
inline double hi_of(double x) { return x; }
inline double lo_of(double) { return 0.0; }

// Helpers take and give vectors by reference: a vector of 64 bytes passed or
// returned by value takes a calling convention that depends on the target's
// vector width (GCC warns, -Wpsabi, on a target without 512-bit vectors).
inline void load_values(const float* v, Doubles& out) {
#if defined(__AVX512F__)
  // One conversion of eight lanes (GCC 12 made two of four of the generic form, and an insert).
  out = _mm512_maskz_cvtps_pd(0xff, _mm256_loadu_ps(v));  // (maskz: see round_up)
#else
  Floats f;
  std::memcpy(&f, v, sizeof f);
  out = __builtin_convertvector(f, Doubles);
#endif
}
inline void load_values(const double* v, Doubles& out) { std::memcpy(&out, v, sizeof out); }
inline void load_exact(const double* e, Doubles& hi, Doubles& lo) {
  std::memcpy(&hi, e, sizeof hi);
  lo = Doubles{};
}
inline void load_exact(const DoubleDouble* e, Doubles& hi, Doubles& lo) {
  static_assert(sizeof(DoubleDouble) == 2 * sizeof(double));
  Doubles first;
  Doubles second;
  std::memcpy(&first, e, sizeof first);
  std::memcpy(&second, e + width / 2, sizeof second);
  // The even lanes of (first, second) are the his, the odd ones the los
  // (clang spells GCC's __builtin_shuffle with constant indices this way).
#if defined(__clang__)
  hi = __builtin_shufflevector(first, second, 0, 2, 4, 6, 8, 10, 12, 14);
  lo = __builtin_shufflevector(first, second, 1, 3, 5, 7, 9, 11, 13, 15);
#else
  hi = __builtin_shuffle(first, second, Lanes{0, 2, 4, 6, 8, 10, 12, 14});
  lo = __builtin_shuffle(first, second, Lanes{1, 3, 5, 7, 9, 11, 13, 15});
#endif
}

}  // namespace
}  // namespace pecheck::accuracy
