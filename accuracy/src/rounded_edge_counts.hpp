// A judged row's histogram-edge counts (ulp_kernel.cpp) from its ULP errors
// rounded upward to float32: stored by the row's pass, then compared with
// each edge eight at a time in a loop of their own, the comparisons' results
// vectors (see count_above), where the pass compared the doubles into masks.
//
// Why the counts do not change: for a double x and an edge e that is a
// float32, x > e if and only if RU(x) > e, RU(x) being x rounded to float32
// upward (toward +infinity). If x > e then RU(x) >= x > e. If x <= e then
// RU(x) <= e, since RU(x) is the smallest float32 at or above x and e is one
// of them. A NaN compares false either way. Two machine settings could still
// bend this, and the edges are chosen so that they do not: a result flushed
// to zero (RU(x) below the smallest normal float32 2^-126 becoming 0, or
// read as 0) only ever moves RU(x) to 0 from below 2^-126, where neither x
// nor RU(x) exceeds an edge at or above 2^-126. Every finite edge of
// ulp_histogram_edges() is a float32 at or above 2^-126 (0.0625, ..., 0.375,
// 0.5 + 2^-20, ..., 65536: at most 20 significant bits); the row checks its
// thresholds (rounded_edges_apply) and takes the doubles' path otherwise.
//
// The last threshold, the budget, is not counted here: it is the row's count
// beyond the budget (RowJudgement::beyond), the common entries with ulps above
// it, when no other entry can be above it (a budget not below 0: the other
// entries and the padding have ulps 0).
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <limits>

#include "pecheck/accuracy/ulp_kernel.hpp"

#if defined(__AVX512F__)
#include <immintrin.h>
#endif

namespace pecheck::accuracy {

// The thresholds counted from rounded errors: every judged threshold but the budget.
inline constexpr std::size_t rounded_edges = judged_thresholds - 1;

// Whether a judged row's counts may come from rounded errors (see above):
// each edge a float32 at or above 2^-126 (or +infinity), the last threshold
// the budget, the budget not below 0.
inline bool rounded_edges_apply(const std::array<double, judged_thresholds>& thresholds, double budget) {
  constexpr double largest_float = std::numeric_limits<float>::max();
  for (std::size_t k = 0; k < rounded_edges; ++k) {
    const double e = thresholds[k];
    const bool is_float = e == std::numeric_limits<double>::infinity() ||
                          (e <= largest_float && static_cast<double>(static_cast<float>(e)) == e);
    if (!(e >= 0x1p-126) || !is_float) return false;
  }
  return thresholds[judged_thresholds - 1] == budget && budget >= 0.0;
}

#if defined(__AVX512F__)

// A row is counted a stretch at a time from a buffer this long (in L1;
// each lane's 32-bit counter counts at most stretch / 8 entries).
inline constexpr std::size_t rounded_stretch = 512;

namespace rounded_detail {

// Lane i of the result: a's or b's lane first[i] plus its lane second[i]
// (index 8 + j for b's lane j). Two-source permutations: their intrinsics
// leave no lane undefined (GCC 12 warns, -Wmaybe-uninitialized, about the
// undefined sources of the shuffles and inserts).
struct PairSum {
  std::int32_t first[8];
  std::int32_t second[8];
};
inline __m256i pair_sum(__m256i a, __m256i b, const PairSum& at) {
  return _mm256_add_epi32(
      _mm256_permutex2var_epi32(a, _mm256_loadu_si256(reinterpret_cast<const __m256i*>(at.first)), b),
      _mm256_permutex2var_epi32(a, _mm256_loadu_si256(reinterpret_cast<const __m256i*>(at.second)), b));
}
// Counters a and b to four lanes each: a's in lanes 0-3, b's in 4-7.
inline constexpr PairSum halves = {{0, 1, 2, 3, 8, 9, 10, 11}, {4, 5, 6, 7, 12, 13, 14, 15}};
// Two such pairs (a, b), (c, d) to two lanes each: a's, b's, c's, d's.
inline constexpr PairSum quarters = {{0, 1, 4, 5, 8, 9, 12, 13}, {2, 3, 6, 7, 10, 11, 14, 15}};
// Two such quadruples to one lane each, in order.
inline constexpr PairSum eighths = {{0, 2, 4, 6, 8, 10, 12, 14}, {1, 3, 5, 7, 9, 11, 13, 15}};

// Counter's lanes where x's exceed the edge, plus one (minus the
// comparison's lanes, -1 where true). The comparison's result is a vector
// (AVX's form; AVX-512 compares only into masks): on this Zen 4 a
// comparison into a mask took as long for sixteen lanes as this one for
// eight, with a masked add beside it (0.43 ns an entry over a row's
// thirteen edges, against 0.28).
[[gnu::always_inline]] inline void count_above(__m256i& counter, __m256 x, float edge) {
  counter = _mm256_sub_epi32(counter, _mm256_castps_si256(_mm256_cmp_ps(x, _mm256_set1_ps(edge), _CMP_GT_OQ)));
}

}  // namespace rounded_detail

// Adds to above[k] how many of rounded[0, n) exceed edges[k], for each of
// the rounded_edges edges; n is a multiple of 8 (the padding 0, counted by no
// edge), at most rounded_stretch. Each edge has a vector counter; the
// counters are then summed lane-wise together, a tree of permutations and
// adds. The counters are variables of their own: held in an array, GCC 12
// copied each twice per iteration (or kept them in memory).
inline void count_rounded_above(const float* rounded, std::size_t n, const float* edges, std::int64_t* above) {
  static_assert(rounded_edges == 13);
  using rounded_detail::count_above;
  using rounded_detail::pair_sum;
  const __m256i zero = _mm256_setzero_si256();
  __m256i c0 = zero, c1 = zero, c2 = zero, c3 = zero, c4 = zero, c5 = zero, c6 = zero, c7 = zero, c8 = zero, c9 = zero,
          c10 = zero, c11 = zero, c12 = zero;
  for (std::size_t i = 0; i < n; i += 8) {
    const __m256 x = _mm256_loadu_ps(rounded + i);
    count_above(c0, x, edges[0]);
    count_above(c1, x, edges[1]);
    count_above(c2, x, edges[2]);
    count_above(c3, x, edges[3]);
    count_above(c4, x, edges[4]);
    count_above(c5, x, edges[5]);
    count_above(c6, x, edges[6]);
    count_above(c7, x, edges[7]);
    count_above(c8, x, edges[8]);
    count_above(c9, x, edges[9]);
    count_above(c10, x, edges[10]);
    count_above(c11, x, edges[11]);
    count_above(c12, x, edges[12]);
  }
  const auto quadruple = [](__m256i a, __m256i b, __m256i c, __m256i d) {
    return pair_sum(pair_sum(a, b, rounded_detail::halves), pair_sum(c, d, rounded_detail::halves),
                    rounded_detail::quarters);
  };
  alignas(32) std::int32_t sums[16];
  _mm256_store_si256(reinterpret_cast<__m256i*>(sums),
                     pair_sum(quadruple(c0, c1, c2, c3), quadruple(c4, c5, c6, c7), rounded_detail::eighths));
  _mm256_store_si256(reinterpret_cast<__m256i*>(sums + 8),
                     pair_sum(quadruple(c8, c9, c10, c11), quadruple(c12, zero, zero, zero), rounded_detail::eighths));
  for (std::size_t k = 0; k < rounded_edges; ++k) above[k] += sums[k];
}

#endif

}  // namespace pecheck::accuracy
