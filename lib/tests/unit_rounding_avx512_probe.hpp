// The AVX-512 rounding routes on plain arrays, compiled apart for
// unit_rounding_test.cpp (unit_rounding_avx512_probe.cpp says why); defined
// only where that file is compiled with AVX-512.
#pragma once

#include <cstdint>

namespace pecheck::testing {

// Each route's bits for eight doubles `lanes` (and `other` beside them in the
// interleaved ones): float16_bits, bfloat16_bits, float16_bits_interleaved
// (lanes, other), bfloat16_bits_interleaved(other, lanes), and the routes for
// normal floats, bfloat16_bits_normal(lanes, other) and
// bfloat16_bits_interleaved_normal(lanes, other), with whether each took the
// values (false: a midpoint met, its outputs left at 0x7fc1).
struct VectorRoundings {
  std::uint16_t float16[8];
  std::uint16_t bfloat16[8];
  std::uint16_t float16_pairs[16];
  std::uint16_t bfloat16_pairs[16];
  std::uint16_t bfloat16_normal[8];
  std::uint16_t bfloat16_normal_other[8];
  std::uint16_t bfloat16_normal_pairs[16];
  bool normal_taken;
  bool normal_pairs_taken;
};

void avx512_probe_round(const double* lanes, const double* other, VectorRoundings& out);

}  // namespace pecheck::testing
