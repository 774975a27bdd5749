#include "pecheck/accuracy/ulp_kernel.hpp"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstring>
#if defined(__AVX512F__) || defined(__AVX2__)
#include <immintrin.h>
#endif
#include <limits>
#include <type_traits>

#include "pecheck/isa.hpp"
#include "rounded_edge_counts.hpp"
#include "ulp_kernels.hpp"
#include "ulp_lanes.hpp"

namespace pecheck::accuracy {

namespace {

// The common path for a whole row. The ULP is the one of ulp_of: the binade
// 2^e of fl(hi + lo) is its bits masked to the exponent, halved for a power
// of two with a tail of the other sign (lib/src/numbers/ulp.cpp has why),
// floored at the format's smallest normal 2^min_exponent, times 2^(1 - p);
// all exact, since 2^-953 <= ulp <= 2^1000 in the common case. Its inverse
// 2^-k is read off the bits as narrow_rounding does
// (reference/src/double_tier.hpp): 0x7fe0000000000000 - bits(2^k) =
// bits(2^-k) for a normal 2^k with |k| <= 1022; and bits(2^k) is the
// floored binade's bits plus (1 - p) 2^52 (a normal power of two scaled
// within the normal range), so the inverse is one integer subtraction. For
// exact values given as plain doubles every lo is zero, so fl(hi + lo) = hi
// with no tail, and the same doubles come without the two_sum.
//
// Written with vector types because GCC 12 left every scalar form of this
// loop that also gathered the totals scalar, and the totals' separate
// passes were most of the accumulator's time. The squares go into eight
// partial sums, lane j taking entries j, j + 8, ... in order and the last
// count % 8 entries going to lane 0, added up 0 to 7: a fixed order, so the
// same row always gives the same bits.
//
// A judged row (Judge; RowJudgement in ulp_kernel.hpp) counts its entries
// above N thresholds and judges those above the budget against their bounds
// in the same pass. With AVX-512 and thresholds that allow it (Rounded;
// rounded_edge_counts.hpp has why the counts are the same), the pass stores
// each entry's ulps rounded upward to float32 in a buffer in L1, and a second
// loop over a stretch of it counts the edges (count_rounded_above); its
// counts beyond the budget and the bound are mask populations. Over rows of
// 128 float32 entries against plain doubles, on this Zen 4: 1.22 ns an entry
// for the judged pass, against 1.97 with the masks below (0.98 for the plain
// pass, 1.11 before the inverse ULP in integers). Without
// (AVX-512, other thresholds) each threshold's count is the population of a
// comparison's eight-lane mask, added to a scalar: fourteen vector counters
// beside their thresholds and the pass's own registers do not fit (spilled,
// the pass took 47 to 50 ms of CPU over the bench's model comparison,
// against 21 ms without the edges and 32 to 35 ms with the masks). Elsewhere
// the counters are vectors, as in the plain pass. The ratios |error| / bound are
// not divided out here (a division is a vector's slowest operation, and the
// accumulator wants only those at or above a floor, rare once its worst is
// large): the pass only tells whether an entry's ratio may reach
// `ratio_floor`, by |error| < floor bound (1 - 2^-50) failing, which it does
// for every ratio at or above the floor (the product, two roundings of
// relative error 2^-53 each, is below the exact floor bound where it is
// normal; a NaN product fails it too, and a product below 2^-1000, where a
// subnormal rounding is not relative, counts as failing).
//
// Assumed (a pass without Store): the row's full vectors are taken as
// common entries without the range test (a dozen of a vector's fifty-odd
// operations); the pass gathers instead the extremes that test reads (the
// largest |value|, the smallest and largest |hi| and |hi + lo|, as bits),
// and `held` says whether every one was within the range, that is, whether
// the totals are the tested pass's. The caller passes the row again, tested,
// when not (a row with a NaN, an infinity, an exact zero). The last
// count % 8 entries are tested either way. Over the bench's model
// comparison: the plain pass 8.4% -> 7.1% of the command's samples, the
// judged one 8.9% -> 7.1% (perf, eight runs each, against the unchanged
// angle-sum kernel's share).
template <bool Store, bool Judge, bool Rounded, std::size_t N, typename Value, typename Exact, bool Assumed = false>
RowTotals common_errors(const Value* __restrict values, const Exact* __restrict exact, std::size_t count,
                        const Format& format, const double* thresholds, double* __restrict ulps,
                        double* __restrict abs_error, unsigned char* __restrict common, const double* __restrict bounds,
                        double budget, double ratio_floor, RowJudgement* judgement,
                        [[maybe_unused]] const RoundedEdges* rounded_edge = nullptr,
                        [[maybe_unused]] bool* held = nullptr) {
  static_assert(!(Assumed && Store));
  // bits(2^-k) for the ULP 2^k = max(lowered, 2^min_exponent) 2^(1 - p): inverse_base - bits(max(...)).
  const Bits min_normal_bits = Bits{} + std::bit_cast<std::uint64_t>(std::ldexp(1.0, format.min_exponent));
  const std::uint64_t inverse_base = 0x7fe0000000000000ULL + (static_cast<std::uint64_t>(format.precision - 1) << 52);
  constexpr bool plain = std::is_same_v<Exact, double>;
  constexpr double infinity = std::numeric_limits<double>::infinity();
  Doubles squares{};
  Bits max_ulps{};
  Bits max_abs{};
  Bits min_magnitude = Bits{} + std::bit_cast<std::uint64_t>(infinity);
  Lanes common_count{};
  Bits largest_value{};
#if defined(__AVX512F__)
  constexpr bool mask_counts = Judge && !Rounded;  // a judged row's counts from masks (see above)
  // A plain row's counts from masks too, each threshold's population added
  // to a scalar (its few thresholds in registers): 0.80 ns an entry for the
  // plain pass over rows like the bench's, against 0.98 with vector counters.
  constexpr bool plain_mask_counts = !Judge;
  static_assert(!Rounded || (Judge && N == judged_thresholds));
  // The stretch's ulps rounded upward (Rounded; their edges in rounded_edge).
  alignas(64) float rounded[Rounded ? rounded_stretch : 1];
#else
  static_assert(!Rounded);
  constexpr bool mask_counts = false;
  constexpr bool plain_mask_counts = false;
#endif
#if !defined(__AVX512F__) && defined(__AVX2__)
  // With AVX2 each threshold's count from the two halves' sign masks, added
  // to a scalar, the threshold broadcast from memory: eight-lane counters
  // and thresholds (two registers each, 56 for a judged row's fourteen) were
  // spilled around every iteration (679 vmovdqa in the plain pass). The
  // x86-64-v3 variant's validate: 262 -> 192 ms task-clock for a 65536 x 128
  // float32 rotary cache, 346 -> 287 ms for a 32768 x 1024 table (perf stat
  // -r 10, alternated).
  constexpr bool half_mask_counts = true;
#else
  constexpr bool half_mask_counts = false;
#endif
  constexpr bool vector_counts = !mask_counts && !plain_mask_counts && !Rounded && !half_mask_counts;
  std::array<Lanes, vector_counts ? N : 0> above{};
  std::array<std::int64_t, vector_counts ? 0 : N> above_count{};
  // The thresholds in registers: read through a reference, they were loaded
  // again every eight entries (the stores might have changed them, for all GCC knew).
  std::array<Doubles, vector_counts || plain_mask_counts ? N : 0> threshold;
  for (std::size_t k = 0; k < threshold.size(); ++k) threshold[k] = Doubles{} + thresholds[k];
  const Doubles budget_lanes = Doubles{} + budget;
  const Doubles floor_lanes = Doubles{} + ratio_floor * (1.0 - 0x1p-50);
  Lanes beyond{};
  Lanes beyond_bound{};
  Lanes may_reach{};
  // The same as counts and a mask (Rounded, below).
  [[maybe_unused]] std::int64_t common_scalar = 0;
  [[maybe_unused]] std::int64_t beyond_count = 0;
  [[maybe_unused]] std::int64_t beyond_bound_count = 0;
  [[maybe_unused]] unsigned may_reach_lanes = 0;
  [[maybe_unused]] const Doubles tiny_lanes = Doubles{} + 0x1p-1000;
  // What the range test reads, over the full vectors (Assumed).
  [[maybe_unused]] Bits largest_hi{};
  [[maybe_unused]] Bits largest_sum{};
  [[maybe_unused]] Bits smallest_sum = Bits{} + std::bit_cast<std::uint64_t>(infinity);
  // n lanes from entry c (n < 8 only for the row's last entries, padded with
  // zeros, which are not common and add nothing).
  const auto entries = [&](std::size_t c, std::size_t n, Doubles& entry_ulps, Doubles& entry_abs, Lanes& is_common,
                           Bits& value_bits, Bits& magnitude_bits_out) [[gnu::always_inline]] {
    Doubles value{};
    Doubles hi{};
    Doubles lo{};
    if (n == width) {
      load_values(values + c, value);
      load_exact(exact + c, hi, lo);
    } else {
      for (std::size_t j = 0; j < n; ++j) {
        value[j] = static_cast<double>(values[c + j]);
        hi[j] = hi_of(exact[c + j]);
        lo[j] = lo_of(exact[c + j]);
      }
    }
    const Doubles sum = plain ? hi : hi + lo;  // two_sum, written out
    const Doubles bb = sum - hi;
    const Doubles tail = plain ? Doubles{} : (hi - (sum - bb)) + (lo - bb);
    const Doubles magnitude = reinterpret_cast<Doubles>(reinterpret_cast<Bits>(hi) & magnitude_bits);
    const Doubles sum_magnitude = reinterpret_cast<Doubles>(reinterpret_cast<Bits>(sum) & magnitude_bits);
    const Doubles lo_magnitude = reinterpret_cast<Doubles>(reinterpret_cast<Bits>(lo) & magnitude_bits);
    value_bits = reinterpret_cast<Bits>(value) & magnitude_bits;
    if (Assumed && n == width) {
      // Non-negative doubles order as their bits (a NaN above infinity).
      const Bits hi_bits = reinterpret_cast<Bits>(magnitude);
      largest_hi = hi_bits > largest_hi ? hi_bits : largest_hi;
      if constexpr (!plain) {
        // (|lo| is finite when hi + lo is: no extreme of its own.)
        const Bits sum_bits = reinterpret_cast<Bits>(sum_magnitude);
        largest_sum = sum_bits > largest_sum ? sum_bits : largest_sum;
        smallest_sum = sum_bits < smallest_sum ? sum_bits : smallest_sum;
      }
      is_common = Lanes{} - 1;
    } else {
      // Each compare at the target's width (lane_compares.hpp).
      const Doubles largest_finite = Doubles{} + 0x1.fffffffffffffp1023;
      const Doubles low = Doubles{} + 0x1p-900;
      const Doubles high = Doubles{} + 0x1p1000;
      Lanes value_finite, lo_finite, hi_above, hi_below, sum_above, sum_below;
      compare_lanes(reinterpret_cast<const Doubles&>(value_bits), largest_finite, value_finite, LessEqual{});
      compare_lanes(lo_magnitude, largest_finite, lo_finite, LessEqual{});
      compare_lanes(low, magnitude, hi_above, LessEqual{});
      compare_lanes(magnitude, high, hi_below, LessEqual{});
      compare_lanes(low, sum_magnitude, sum_above, LessEqual{});
      compare_lanes(sum_magnitude, high, sum_below, LessEqual{});
      const Lanes in_range = value_finite & lo_finite & hi_above & hi_below & sum_above & sum_below;
      is_common =
          n == width ? in_range : in_range & (Lanes{0, 1, 2, 3, 4, 5, 6, 7} < static_cast<std::int64_t>(n));
    }
    const Doubles binade = reinterpret_cast<Doubles>(reinterpret_cast<Bits>(sum_magnitude) & 0x7ff0000000000000ULL);
    Lanes tail_nonzero, tail_negative, sum_negative, at_binade;
    compare_lanes(tail, Doubles{}, tail_nonzero, NotEqual{});
    compare_lanes(tail, Doubles{}, tail_negative, Less{});
    compare_lanes(sum, Doubles{}, sum_negative, Less{});
    compare_lanes(sum_magnitude, binade, at_binade, Equal{});
    const Lanes below = tail_nonzero & (tail_negative != sum_negative);
    const Doubles lowered = (at_binade & below) ? 0.5 * binade : binade;
    // The floor and the inverse in integers (see above): max(lowered,
    // 2^min_exponent) is the larger of two positive powers of two, the larger
    // bits; its bits plus (1 - p) 2^52 are the ULP's. Outside the common case
    // the inverse may be anything (never used).
    const Bits lowered_bits = reinterpret_cast<Bits>(lowered);
    const Bits floored = lowered_bits > min_normal_bits ? lowered_bits : min_normal_bits;
    const Doubles inverse_ulp = reinterpret_cast<Doubles>(inverse_base - floored);
    const Doubles difference = reinterpret_cast<Doubles>(reinterpret_cast<Bits>((value - hi) - lo) & magnitude_bits);
    entry_ulps = is_common ? difference * inverse_ulp : Doubles{};
    entry_abs = is_common ? difference : Doubles{};
    magnitude_bits_out =
        is_common ? reinterpret_cast<Bits>(magnitude) : Bits{} + std::bit_cast<std::uint64_t>(infinity);
    if constexpr (Store) {
      std::memcpy(ulps + c, &entry_ulps, n * sizeof(double));
      std::memcpy(abs_error + c, &entry_abs, n * sizeof(double));
      for (std::size_t j = 0; j < n; ++j) common[c + j] = is_common[j] != 0 ? 1 : 0;
    }
  };
  // Non-negative doubles order as their bits: the extrema are integer extrema.
  const auto add = [&](const Doubles& entry_ulps, const Doubles& entry_abs, const Lanes& is_common,
                       const Bits& value_bits, const Bits& magnitude) [[gnu::always_inline]] {
    const Bits ulps_bits = reinterpret_cast<Bits>(entry_ulps);
    const Bits abs_bits = reinterpret_cast<Bits>(entry_abs);
    largest_value = value_bits > largest_value ? value_bits : largest_value;
    max_ulps = ulps_bits > max_ulps ? ulps_bits : max_ulps;
    max_abs = abs_bits > max_abs ? abs_bits : max_abs;
    min_magnitude = magnitude < min_magnitude ? magnitude : min_magnitude;
#if defined(__AVX512F__)
    if constexpr (Rounded) {
      // Counted by the mask's population (as judge's counts); the edges from
      // the stretch's rounded ulps.
      const __m512i common_lanes = reinterpret_cast<__m512i>(is_common);
      common_scalar += __builtin_popcount(static_cast<unsigned>(_mm512_test_epi64_mask(common_lanes, common_lanes)));
      return;
    }
#endif
    common_count -= is_common;
#if defined(__AVX512F__)
    if constexpr (plain_mask_counts) {
      for (std::size_t k = 0; k < N; ++k) {
        const __mmask8 is_above = _mm512_cmp_pd_mask(entry_ulps, threshold[k], _CMP_GT_OQ);
        above_count[k] += __builtin_popcount(static_cast<unsigned>(is_above));
        // (Without it GCC packed the masks together for a vector population count.)
        asm("" : "+r"(above_count[k]));
      }
      return;
    }
    if constexpr (mask_counts) {
      // Each threshold broadcast from memory: GCC would keep all fourteen in
      // registers, spilled. The empty asm hides that the pointer is the same
      // every time, so the loads stay in the loop.
      const double* threshold_at = thresholds;
      asm("" : "+r"(threshold_at));
      for (std::size_t k = 0; k < N; ++k) {
        const __mmask8 above_threshold = _mm512_cmp_pd_mask(entry_ulps, _mm512_set1_pd(threshold_at[k]), _CMP_GT_OQ);
        above_count[k] += __builtin_popcount(static_cast<unsigned>(above_threshold));
      }
      return;
    }
#endif
#if !defined(__AVX512F__) && defined(__AVX2__)
    if constexpr (half_mask_counts) {
      const double* threshold_at = thresholds;
      asm("" : "+r"(threshold_at));  // (loaded each time: see mask_counts)
      __m256d low_half;
      __m256d high_half;
      std::memcpy(&low_half, &entry_ulps, sizeof low_half);
      std::memcpy(&high_half, reinterpret_cast<const char*>(&entry_ulps) + sizeof low_half, sizeof high_half);
      for (std::size_t k = 0; k < N; ++k) {
        const __m256d t = _mm256_broadcast_sd(threshold_at + k);
        const int is_above = _mm256_movemask_pd(_mm256_cmp_pd(low_half, t, _CMP_GT_OQ)) |
                             (_mm256_movemask_pd(_mm256_cmp_pd(high_half, t, _CMP_GT_OQ)) << 4);
        above_count[k] += __builtin_popcount(static_cast<unsigned>(is_above));
      }
      return;
    }
#endif
    for (std::size_t k = 0; k < above.size(); ++k) {
      Lanes is_above;
      compare_lanes(threshold[k], entry_ulps, is_above, Less{});
      above[k] -= is_above;
    }
  };
  // Entries c to c + n of a judged row (n < 8 only for the row's last ones;
  // the padding is not common, so not counted).
  const auto judge = [&](std::size_t c, std::size_t n, const Doubles& entry_ulps, const Doubles& entry_abs,
                         const Lanes& is_common) [[gnu::always_inline]] {
    Doubles bound{};
    if (n == width) {
      std::memcpy(&bound, bounds + c, sizeof bound);
    } else {
      for (std::size_t j = 0; j < n; ++j) bound[j] = bounds[c + j];
    }
    const Doubles least = floor_lanes * bound;
#if defined(__AVX512F__)
    if constexpr (Rounded) {
      // The same tests as below, kept as masks and counted by their
      // populations: a vector operation fewer for each, of about 45 an
      // iteration, where the vector units are the limit.
      const __m512i common_lanes = reinterpret_cast<__m512i>(is_common);
      const __mmask8 counted = _mm512_mask_cmp_pd_mask(_mm512_test_epi64_mask(common_lanes, common_lanes), entry_ulps,
                                                       budget_lanes, _CMP_GT_OQ);
      beyond_count += __builtin_popcount(static_cast<unsigned>(counted));
      const __mmask8 outside = _mm512_mask_cmp_pd_mask(counted, entry_abs, bound, _CMP_NLE_UQ);  // ~(<=)
      beyond_bound_count += __builtin_popcount(static_cast<unsigned>(outside));
      may_reach_lanes |= static_cast<unsigned>(_mm512_mask_cmp_pd_mask(counted, entry_abs, least, _CMP_NLT_UQ) |
                                               _mm512_mask_cmp_pd_mask(counted, least, tiny_lanes, _CMP_LT_OQ));
      return;
    }
#endif
    Lanes over_budget, within_bound, below_least, least_tiny;
    compare_lanes(budget_lanes, entry_ulps, over_budget, Less{});
    compare_lanes(entry_abs, bound, within_bound, LessEqual{});
    compare_lanes(entry_abs, least, below_least, Less{});
    compare_lanes(least, tiny_lanes, least_tiny, Less{});
    const Lanes counted = is_common & over_budget;
    beyond -= counted;
    beyond_bound -= counted & ~within_bound;
    may_reach |= counted & (~below_least | least_tiny);
  };
  Doubles entry_ulps;
  Doubles entry_abs;
  Lanes is_common;
  Bits value_bits;
  Bits magnitude;
  // Eight entries' ulps rounded upward into the stretch's buffer, at `at` (Rounded).
  [[maybe_unused]] const auto round_up = [&](std::size_t at, const Doubles& x) [[gnu::always_inline]] {
#if defined(__AVX512F__)
    // (The all-lanes mask: the unmasked intrinsic's undefined source makes GCC 12 warn.)
    _mm256_store_ps(rounded + at, _mm512_maskz_cvt_roundpd_ps(0xff, x, _MM_FROUND_TO_POS_INF | _MM_FROUND_NO_EXC));
#else
    (void)at;
    (void)x;
#endif
  };
  // A Rounded row a stretch at a time (its edges counted at each stretch's
  // end); any other in one.
  const std::size_t stretch = Rounded ? rounded_stretch : count;
  std::size_t c = 0;
  while (c < count) {
    const std::size_t start = c;
    const std::size_t end = count - c > stretch ? c + stretch : count;
    for (; c + width <= end; c += width) {
      entries(c, width, entry_ulps, entry_abs, is_common, value_bits, magnitude);
      add(entry_ulps, entry_abs, is_common, value_bits, magnitude);
      if constexpr (Judge) judge(c, width, entry_ulps, entry_abs, is_common);
      if constexpr (Rounded) round_up(c - start, entry_ulps);
      squares += entry_ulps * entry_ulps;
    }
    if (c < end) {  // only at the row's end: a stretch is a multiple of eight entries
      entries(c, end - c, entry_ulps, entry_abs, is_common, value_bits, magnitude);  // the padding counts nothing
      add(entry_ulps, entry_abs, is_common, value_bits, magnitude);
      if constexpr (Judge) judge(c, end - c, entry_ulps, entry_abs, is_common);
      if constexpr (Rounded) round_up(c - start, entry_ulps);  // the padding's ulps are 0
      for (std::size_t j = 0; j < end - c; ++j) squares[0] += entry_ulps[j] * entry_ulps[j];
      c += width;
    }
#if defined(__AVX512F__)
    if constexpr (Rounded) {
      std::size_t stored = c - start;
      if (stored % 16 != 0) round_up(stored, Doubles{});  // to sixteen entries, with zeros (counted by no edge)
      stored += stored % 16;
      count_rounded_above(rounded, stored, *rounded_edge, above_count.data());
    }
#endif
    c = end;
  }
  RowTotals totals;
  std::uint64_t smallest = std::bit_cast<std::uint64_t>(infinity);
  for (std::size_t j = 0; j < width; ++j) {
    totals.squares += squares[j];
    totals.common += common_count[j];
    totals.max_ulps = std::max(totals.max_ulps, std::bit_cast<double>(max_ulps[j]));
    totals.max_abs_error = std::max(totals.max_abs_error, std::bit_cast<double>(max_abs[j]));
    totals.largest_value_bits = std::max<std::uint64_t>(totals.largest_value_bits, largest_value[j]);
    smallest = std::min<std::uint64_t>(smallest, min_magnitude[j]);
    for (std::size_t k = 0; k < above.size(); ++k) totals.above[k] += above[k][j];
  }
  totals.min_exact_magnitude = std::bit_cast<double>(smallest);
  if constexpr (Assumed) {
    // The range test's bounds as bits: every full vector's entries passed it
    // when the extremes are within them (a tested tail entry that failed is
    // not common, smallest ignores it; its value may fail this test too,
    // which asks for the tested pass needlessly, not wrongly).
    constexpr std::uint64_t finite = 0x7fefffffffffffffULL;   // the largest finite double
    constexpr std::uint64_t low = 0x07b0000000000000ULL;      // 2^-900
    constexpr std::uint64_t high = 0x7e70000000000000ULL;     // 2^1000
    std::uint64_t most_value = 0, most_hi = 0, most_sum = 0;
    std::uint64_t least_sum = std::bit_cast<std::uint64_t>(infinity);
    for (std::size_t j = 0; j < width; ++j) {
      most_value = std::max<std::uint64_t>(most_value, largest_value[j]);
      most_hi = std::max<std::uint64_t>(most_hi, largest_hi[j]);
      most_sum = std::max<std::uint64_t>(most_sum, largest_sum[j]);
      least_sum = std::min<std::uint64_t>(least_sum, smallest_sum[j]);
    }
    *held = most_value <= finite && most_hi <= high && smallest >= low &&
            (plain || (most_sum <= high && least_sum >= low));
  }
  totals.common += common_scalar;
  for (std::size_t k = 0; k < above_count.size(); ++k) totals.above[k] = above_count[k];
  if constexpr (Judge) {
    for (std::size_t j = 0; j < width; ++j) {
      judgement->beyond += beyond[j];
      judgement->beyond_bound += beyond_bound[j];
      judgement->may_reach_floor |= may_reach[j] != 0;
    }
    if constexpr (Rounded) {
      judgement->beyond += beyond_count;
      judgement->beyond_bound += beyond_bound_count;
      judgement->may_reach_floor |= may_reach_lanes != 0;
      totals.above[N - 1] = judgement->beyond;  // the budget's count (rounded_edge_counts.hpp)
    }
  }
  return totals;
}

// A plain row over N thresholds (row_thresholds: the histogram's first four
// edges and the budget; 1: the budget alone, for an accumulator without a histogram).
template <std::size_t N, typename Value, typename Exact>
RowTotals plain_row(std::span<const Value> values, std::span<const Exact> exact, const Format& format,
                    const std::array<double, N>& thresholds, const RowErrors* store) {
  if (store == nullptr) {
    // Every entry taken as common first (Assumed, above); tested when one may not be.
    bool held = false;
    const RowTotals assumed = common_errors<false, false, false, N, Value, Exact, true>(
        values.data(), exact.data(), values.size(), format, thresholds.data(), nullptr, nullptr, nullptr, nullptr, 0.0,
        0.0, nullptr, nullptr, &held);
    if (held) return assumed;
    return common_errors<false, false, false, N>(values.data(), exact.data(), values.size(), format, thresholds.data(),
                                                 nullptr, nullptr, nullptr, nullptr, 0.0, 0.0, nullptr);
  }
  return common_errors<true, false, false, N>(values.data(), exact.data(), values.size(), format, thresholds.data(),
                                              store->ulps, store->abs_error, store->common, nullptr, 0.0, 0.0, nullptr);
}

template <typename Value, typename Exact>
RowTotals row_errors(std::span<const Value> values, std::span<const Exact> exact, const Format& format,
                     const std::array<double, row_thresholds>& thresholds, const RowErrors* store) {
  return plain_row(values, exact, format, thresholds, store);
}

template <typename Value, typename Exact>
RowTotals row_budget(std::span<const Value> values, std::span<const Exact> exact, const Format& format, double budget) {
  return plain_row(values, exact, format, std::array<double, 1>{budget}, nullptr);
}

// A judged row over N thresholds (judged_thresholds: every finite histogram
// edge and the budget; 0: none, the budget's count being the judgement's).
template <std::size_t N, typename Value, typename Exact>
RowTotals judged_row(std::span<const Value> values, std::span<const Exact> exact, const Format& format,
                     const std::array<double, N>& thresholds, std::span<const double> bounds, double budget,
                     double ratio_floor, RowJudgement& judgement) {
  // Every entry taken as common first (Assumed, above); tested when one may not be.
  bool held = false;
  judgement = RowJudgement{};
#if defined(__AVX512F__)
  if constexpr (N == judged_thresholds) {
    RoundedEdges scratch;
    const RoundedEdges& edges = rounded_edges_of(thresholds, scratch);
    if (rounded_edges_apply(edges, thresholds, budget)) {
      const RowTotals assumed = common_errors<false, true, true, N, Value, Exact, true>(
          values.data(), exact.data(), values.size(), format, thresholds.data(), nullptr, nullptr, nullptr,
          bounds.data(), budget, ratio_floor, &judgement, &edges, &held);
      if (held) return assumed;
      judgement = RowJudgement{};
      return common_errors<false, true, true, N>(values.data(), exact.data(), values.size(), format, thresholds.data(),
                                                 nullptr, nullptr, nullptr, bounds.data(), budget, ratio_floor,
                                                 &judgement, &edges);
    }
  }
#endif
  const RowTotals assumed = common_errors<false, true, false, N, Value, Exact, true>(
      values.data(), exact.data(), values.size(), format, thresholds.data(), nullptr, nullptr, nullptr, bounds.data(),
      budget, ratio_floor, &judgement, nullptr, &held);
  if (held) return assumed;
  judgement = RowJudgement{};
  return common_errors<false, true, false, N>(values.data(), exact.data(), values.size(), format, thresholds.data(),
                                              nullptr, nullptr, nullptr, bounds.data(), budget, ratio_floor,
                                              &judgement);
}

template <typename Value, typename Exact>
RowTotals row_errors_judged(std::span<const Value> values, std::span<const Exact> exact, const Format& format,
                            const std::array<double, judged_thresholds>& thresholds, std::span<const double> bounds,
                            double budget, double ratio_floor, RowJudgement& judgement) {
  return judged_row(values, exact, format, thresholds, bounds, budget, ratio_floor, judgement);
}

template <typename Value, typename Exact>
RowTotals row_budget_judged(std::span<const Value> values, std::span<const Exact> exact, const Format& format,
                            std::span<const double> bounds, double budget, double ratio_floor,
                            RowJudgement& judgement) {
  return judged_row(values, exact, format, std::array<double, 0>{}, bounds, budget, ratio_floor, judgement);
}

}  // namespace

}  // namespace pecheck::accuracy

// This variant's table (ulp_kernels.hpp): the file is compiled once per
// instruction-set variant (accuracy/CMakeLists.txt).
extern "C" const pecheck::accuracy::UlpKernels PECHECK_ISA_SYMBOL(ulp_kernels) = {
    pecheck::accuracy::row_errors<float, pecheck::DoubleDouble>,
    pecheck::accuracy::row_errors<double, pecheck::DoubleDouble>,
    pecheck::accuracy::row_errors<float, double>,
    pecheck::accuracy::row_errors<double, double>,
    pecheck::accuracy::row_errors_judged<float, pecheck::DoubleDouble>,
    pecheck::accuracy::row_errors_judged<double, pecheck::DoubleDouble>,
    pecheck::accuracy::row_errors_judged<float, double>,
    pecheck::accuracy::row_errors_judged<double, double>,
    pecheck::accuracy::row_budget<float, pecheck::DoubleDouble>,
    pecheck::accuracy::row_budget<double, pecheck::DoubleDouble>,
    pecheck::accuracy::row_budget<float, double>,
    pecheck::accuracy::row_budget<double, double>,
    pecheck::accuracy::row_budget_judged<float, pecheck::DoubleDouble>,
    pecheck::accuracy::row_budget_judged<double, pecheck::DoubleDouble>,
    pecheck::accuracy::row_budget_judged<float, double>,
    pecheck::accuracy::row_budget_judged<double, double>};
