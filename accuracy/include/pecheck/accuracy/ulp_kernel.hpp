// The ULP metric of lib/ulp.hpp for a whole row, eight entries at a time
// without branches, with the row's totals gathered in the same pass: the
// accumulator's inner loop.
//
// An entry is "common" when its value is finite and its exact value finite
// with 2^-900 <= |hi| <= 2^1000 and 2^-900 <= |fl(hi + lo)| <= 2^1000. There
// the kernel gives the same doubles as ulp_error and absolute_error (the
// tests hold it at every binade edge of every format): the ULP is a power of
// two 2^k with -953 <= k <= 1000, read off the bits, so |difference| * 2^-k
// is the same correctly rounded quotient as |difference| / 2^k. Every other
// entry (zeros, subnormal or huge exact values, NaN, infinity) gets 0 here
// and is left to the scalar metric.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <span>

#include "pecheck/double_double.hpp"
#include "pecheck/format.hpp"

namespace pecheck::accuracy {

inline constexpr std::size_t row_thresholds = 5;
// A judged row's (row_ulp_errors_judged): every finite histogram edge and the budget.
inline constexpr std::size_t judged_thresholds = 14;

// What a row's pass gathers over its common entries.
struct RowTotals {
  std::int64_t common = 0;  // common entries
  // Their ulps squared, summed as ulp_kernel.cpp says (a fixed order: the
  // same row gives the same bits).
  double squares = 0.0;
  double max_ulps = 0.0;       // the largest ulps (0 with no common entry)
  double max_abs_error = 0.0;  // the largest |error|
  // The smallest |exact.hi| (infinity with no common entry; never 0).
  double min_exact_magnitude = std::numeric_limits<double>::infinity();
  // Entries with ulps above each threshold (row_thresholds of them, or
  // judged_thresholds for a judged row; the others 0).
  std::array<std::int64_t, judged_thresholds> above{};
  // The largest bit pattern of |value| over every entry, common or not:
  // magnitudes order as their patterns, infinity and NaN above every finite value.
  std::uint64_t largest_value_bits = 0;
};

// Where a pass stores each entry's figures (as many as values; 0 and
// common = 0 for the entries left to the scalar metric), when wanted.
struct RowErrors {
  double* ulps = nullptr;
  double* abs_error = nullptr;
  unsigned char* common = nullptr;
};

// `values` against `exact` (at least as long) in `format`. The values are
// read in their own type (a float converts to a double exactly); exact values
// given as plain doubles have every lo zero. With `store`, each entry's
// figures are written there too.
RowTotals row_ulp_errors(std::span<const float> values, std::span<const DoubleDouble> exact, const Format& format,
                         const std::array<double, row_thresholds>& thresholds, const RowErrors* store = nullptr);
RowTotals row_ulp_errors(std::span<const double> values, std::span<const DoubleDouble> exact, const Format& format,
                         const std::array<double, row_thresholds>& thresholds, const RowErrors* store = nullptr);
RowTotals row_ulp_errors(std::span<const float> values, std::span<const double> exact, const Format& format,
                         const std::array<double, row_thresholds>& thresholds, const RowErrors* store = nullptr);
RowTotals row_ulp_errors(std::span<const double> values, std::span<const double> exact, const Format& format,
                         const std::array<double, row_thresholds>& thresholds, const RowErrors* store = nullptr);

// A row judged against an allowance in the same pass: the accumulator's rows
// with entries beyond the budget (a comparison against a computation model
// has them in most rows), whose figures took a storing pass, a pass per four
// histogram edges and a pass over the stored figures before. Over the common
// entries with ulps above `budget` (counted):
struct RowJudgement {
  std::int64_t beyond = 0;        // counted entries
  std::int64_t beyond_bound = 0;  // of those, the entries whose |error| is not within bounds[e]
  // Whether a counted entry's |error| / bounds[e] may be at or above the
  // pass's ratio_floor (every such entry sets it; one a little below may):
  // the accumulator then finds the row's worst ratio from its stored errors
  // (Accumulator::keep_worst_ratio).
  bool may_reach_floor = false;
};

// row_ulp_errors' totals over judged_thresholds thresholds, and the judgement
// against `bounds` (one per value) of the entries beyond `budget`, with the
// ratios below `ratio_floor` not wanted (-1: every ratio); nothing stored.
RowTotals row_ulp_errors_judged(std::span<const float> values, std::span<const DoubleDouble> exact,
                                const Format& format, const std::array<double, judged_thresholds>& thresholds,
                                std::span<const double> bounds, double budget, double ratio_floor,
                                RowJudgement& judgement);
RowTotals row_ulp_errors_judged(std::span<const double> values, std::span<const DoubleDouble> exact,
                                const Format& format, const std::array<double, judged_thresholds>& thresholds,
                                std::span<const double> bounds, double budget, double ratio_floor,
                                RowJudgement& judgement);
RowTotals row_ulp_errors_judged(std::span<const float> values, std::span<const double> exact, const Format& format,
                                const std::array<double, judged_thresholds>& thresholds, std::span<const double> bounds,
                                double budget, double ratio_floor, RowJudgement& judgement);
RowTotals row_ulp_errors_judged(std::span<const double> values, std::span<const double> exact, const Format& format,
                                const std::array<double, judged_thresholds>& thresholds, std::span<const double> bounds,
                                double budget, double ratio_floor, RowJudgement& judgement);

// The same passes with the budget as their one threshold, for an
// accumulator that leaves its histogram out (HistogramCounting::left_out,
// accumulator.hpp): row_ulp_budget counts the entries above `budget` in
// totals.above[0]; row_ulp_budget_judged counts them in judgement.beyond
// only (every totals.above is 0).
RowTotals row_ulp_budget(std::span<const float> values, std::span<const DoubleDouble> exact, const Format& format,
                         double budget);
RowTotals row_ulp_budget(std::span<const double> values, std::span<const DoubleDouble> exact, const Format& format,
                         double budget);
RowTotals row_ulp_budget(std::span<const float> values, std::span<const double> exact, const Format& format,
                         double budget);
RowTotals row_ulp_budget(std::span<const double> values, std::span<const double> exact, const Format& format,
                         double budget);
RowTotals row_ulp_budget_judged(std::span<const float> values, std::span<const DoubleDouble> exact,
                                const Format& format, std::span<const double> bounds, double budget, double ratio_floor,
                                RowJudgement& judgement);
RowTotals row_ulp_budget_judged(std::span<const double> values, std::span<const DoubleDouble> exact,
                                const Format& format, std::span<const double> bounds, double budget, double ratio_floor,
                                RowJudgement& judgement);
RowTotals row_ulp_budget_judged(std::span<const float> values, std::span<const double> exact, const Format& format,
                                std::span<const double> bounds, double budget, double ratio_floor,
                                RowJudgement& judgement);
RowTotals row_ulp_budget_judged(std::span<const double> values, std::span<const double> exact, const Format& format,
                                std::span<const double> bounds, double budget, double ratio_floor,
                                RowJudgement& judgement);

}  // namespace pecheck::accuracy
