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
#include <bit>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <limits>

#include "pecheck/accuracy/ulp_kernel.hpp"

#if defined(__AVX512F__)
#include <immintrin.h>
#endif

namespace pecheck::accuracy {

// The thresholds counted from rounded errors: every judged threshold but the budget.
inline constexpr std::size_t rounded_edges = judged_thresholds - 1;

// A judged row's edges as the rounded path counts them.
struct RoundedEdges {
  // Each edge a float32 at or above 2^-126, or +infinity (see above).
  bool apply = false;
  float edge[rounded_edges]{};  // the edges as float32
  // At most one edge not a bfloat16 (count_rounded_above): the keys of the
  // others, in order, then that one's index (`wide`: the last edge when all
  // are bfloat16); order[j], the edge of counter j.
  bool keyed = false;
  std::int16_t key[rounded_edges - 1]{};
  std::size_t wide = 0;
  std::size_t order[rounded_edges]{};
};

constexpr RoundedEdges rounded_edges_of(const double* edges) {
  RoundedEdges out;
  constexpr double largest_float = std::numeric_limits<float>::max();
  for (std::size_t k = 0; k < rounded_edges; ++k) {
    const double e = edges[k];
    const bool is_float = e == std::numeric_limits<double>::infinity() ||
                          (e <= largest_float && static_cast<double>(static_cast<float>(e)) == e);
    if (!(e >= 0x1p-126) || !is_float) return out;
    out.edge[k] = static_cast<float>(e);
  }
  out.apply = true;
  std::size_t wide = rounded_edges;  // none yet
  std::size_t narrow = 0;
  for (std::size_t k = 0; k < rounded_edges; ++k) {
    const auto bits = std::bit_cast<std::uint32_t>(out.edge[k]);
    if ((bits & 0xffffU) != 0 || narrow == rounded_edges - 1) {
      if (wide != rounded_edges) return out;  // two edges not bfloat16: each compared as a float32
      wide = k;
      continue;
    }
    out.order[narrow] = k;
    out.key[narrow++] = static_cast<std::int16_t>(bits >> 16);
  }
  out.keyed = true;
  out.wide = wide;
  out.order[rounded_edges - 1] = wide;
  return out;
}

// ulp_histogram_edges()'s finite edges (measurement.cpp; the judged rows'
// test holds them equal): a row's usual edges, worked out once.
inline constexpr std::array<double, rounded_edges> usual_edges = {
    0.0625, 0.125, 0.25, 0.375, 0.5, 0.5 + 0x1p-20, 0.75, 1.0, 2.0, 4.0, 16.0, 256.0, 65536.0};
inline constexpr RoundedEdges usual_rounded_edges = rounded_edges_of(usual_edges.data());

// A row's edges as the rounded path counts them: the usual ones' without
// working them out again (a row's fixed cost, about a twentieth of the
// judged pass over the bench's rows of 128 entries, as it was), others'
// into `scratch`.
inline const RoundedEdges& rounded_edges_of(const std::array<double, judged_thresholds>& thresholds,
                                            RoundedEdges& scratch) {
  if (std::memcmp(thresholds.data(), usual_edges.data(), sizeof usual_edges) == 0) return usual_rounded_edges;
  scratch = rounded_edges_of(thresholds.data());
  return scratch;
}

// Whether a judged row's counts may come from rounded errors (see above):
// each edge a float32 at or above 2^-126 (or +infinity), the last threshold
// the budget, the budget not below 0.
inline bool rounded_edges_apply(const RoundedEdges& edges, const std::array<double, judged_thresholds>& thresholds,
                                double budget) {
  return edges.apply && thresholds[judged_thresholds - 1] == budget && budget >= 0.0;
}
inline bool rounded_edges_apply(const std::array<double, judged_thresholds>& thresholds, double budget) {
  RoundedEdges scratch;
  return rounded_edges_apply(rounded_edges_of(thresholds, scratch), thresholds, budget);
}

// A row is counted a stretch at a time from a buffer this long (in L1;
// each lane's counter counts at most stretch / 8 entries).
inline constexpr std::size_t rounded_stretch = 512;

#if defined(__AVX512F__)

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

namespace rounded_detail {

// The thirteen counters' sums, in order, into sums[0, 13): a tree of
// permutations and adds over their lanes.
inline void sum_counters(const __m256i (&c)[13], std::int32_t* sums) {
  const __m256i zero = _mm256_setzero_si256();
  const auto quadruple = [](__m256i a, __m256i b, __m256i x, __m256i y) {
    return pair_sum(pair_sum(a, b, halves), pair_sum(x, y, halves), quarters);
  };
  alignas(32) std::int32_t all[16];
  _mm256_store_si256(reinterpret_cast<__m256i*>(all),
                     pair_sum(quadruple(c[0], c[1], c[2], c[3]), quadruple(c[4], c[5], c[6], c[7]), eighths));
  _mm256_store_si256(reinterpret_cast<__m256i*>(all + 8),
                     pair_sum(quadruple(c[8], c[9], c[10], c[11]), quadruple(c[12], zero, zero, zero), eighths));
  for (std::size_t k = 0; k < 13; ++k) sums[k] = all[k];
}

// Counter's 16-bit lanes where key's exceed the edge's key, plus one.
[[gnu::always_inline]] inline void count_key_above(__m256i& counter, __m256i key, std::int16_t edge) {
  counter = _mm256_sub_epi16(counter, _mm256_cmpgt_epi16(key, _mm256_set1_epi16(edge)));
}

}  // namespace rounded_detail

// Adds to above[k] how many of rounded[0, n) exceed edges[k], for each of
// the rounded_edges edges; n is a multiple of 8 (the padding 0, counted by no
// edge), at most rounded_stretch. Each edge has a vector counter of eight
// lanes. The counters are variables of their own: held in an array, GCC 12
// copied each twice per iteration (or kept them in memory).
inline void count_rounded_above_each(const float* rounded, std::size_t n, const float* edges, std::int64_t* above) {
  static_assert(rounded_edges == 13);
  using rounded_detail::count_above;
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
  std::int32_t sums[13];
  rounded_detail::sum_counters({c0, c1, c2, c3, c4, c5, c6, c7, c8, c9, c10, c11, c12}, sums);
  for (std::size_t k = 0; k < rounded_edges; ++k) above[k] += sums[k];
}

// The same where every edge but at most one is a bfloat16 (a float32 whose
// low 16 bits are 0: each histogram edge but 0.5 + 2^-20). Those are
// compared sixteen at a time as 16-bit keys: RU16(x) > e if and only if
// RU(x) > e, as above, RU16 rounding upward to bfloat16, which for a
// non-negative float32 or infinity (every rounded ulps: the kernel's are
// never negative or NaN) is adding 0xffff to its bits and keeping the high
// half. The other edge is compared as a float32. 0.19 ns an entry against
// 0.28 over a long row. Here n is a multiple of 16.
inline void count_rounded_above(const float* rounded, std::size_t n, const RoundedEdges& edges, std::int64_t* above) {
  using rounded_detail::count_above;
  using rounded_detail::count_key_above;
  if (!edges.keyed) {
    count_rounded_above_each(rounded, n, edges.edge, above);
    return;
  }
  const std::int16_t* key = edges.key;
  const float wide_edge = edges.edge[edges.wide];
  const __m256i zero = _mm256_setzero_si256();
  __m256i c0 = zero, c1 = zero, c2 = zero, c3 = zero, c4 = zero, c5 = zero, c6 = zero, c7 = zero, c8 = zero, c9 = zero,
          c10 = zero, c11 = zero, c12 = zero;
  const __m512i up = _mm512_set1_epi32(0xffff);
  for (std::size_t i = 0; i < n; i += 16) {
    // (The all-lanes masks: the unmasked intrinsics' undefined sources make GCC 12 warn.)
    const __m256i keys = _mm512_maskz_cvtepi32_epi16(
        0xffff, _mm512_maskz_srli_epi32(0xffff, _mm512_add_epi32(_mm512_loadu_si512(rounded + i), up), 16));
    count_key_above(c0, keys, key[0]);
    count_key_above(c1, keys, key[1]);
    count_key_above(c2, keys, key[2]);
    count_key_above(c3, keys, key[3]);
    count_key_above(c4, keys, key[4]);
    count_key_above(c5, keys, key[5]);
    count_key_above(c6, keys, key[6]);
    count_key_above(c7, keys, key[7]);
    count_key_above(c8, keys, key[8]);
    count_key_above(c9, keys, key[9]);
    count_key_above(c10, keys, key[10]);
    count_key_above(c11, keys, key[11]);
    count_above(c12, _mm256_loadu_ps(rounded + i), wide_edge);
    count_above(c12, _mm256_loadu_ps(rounded + i + 8), wide_edge);
  }
  // The keys' 16-bit counts as eight 32-bit sums of pairs.
  const __m256i ones = _mm256_set1_epi16(1);
  const auto pairs = [&](__m256i x) { return _mm256_madd_epi16(x, ones); };
  std::int32_t sums[13];
  rounded_detail::sum_counters({pairs(c0), pairs(c1), pairs(c2), pairs(c3), pairs(c4), pairs(c5), pairs(c6), pairs(c7),
                                pairs(c8), pairs(c9), pairs(c10), pairs(c11), c12},
                               sums);
  for (std::size_t j = 0; j < rounded_edges; ++j) above[edges.order[j]] += sums[j];
}

#endif

}  // namespace pecheck::accuracy
