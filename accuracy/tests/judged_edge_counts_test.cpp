// A judged row's counts above the histogram edges and the budget
// (row_ulp_errors_judged) against a count of the scalar metric's ulps
// (lib/ulp.hpp), edge by edge, for the four kernels: rows of entries whose
// ulps are exactly at each edge or just either side of it (a double away
// where the exact value is a double-double, 2^-29 away where it is a plain
// double), zero, subnormal, beyond float32's range and infinite, among
// entries the kernel leaves to the scalar metric (NaN and infinite values,
// zero and tiny exact values), over lengths either side of the vector width
// and of the kernel's stretch, for the histogram's edges and for edges that
// take the rounded path's other ways or the doubles'. And the judgement of
// the entries beyond the budget against bounds of 0.5 to 2.5 ulps (outside
// them; may reach a ratio floor). In an AVX-512 build the edges are counted
// from the ulps rounded upward to float32 (rounded_edge_counts.hpp): an
// entry just above an edge must stay above it, one at the edge must not be.
#include <gtest/gtest.h>

#include <array>
#include <cmath>
#include <cstdint>
#include <limits>
#include <span>
#include <string>
#include <type_traits>
#include <vector>

#include "pecheck/accuracy/measurement.hpp"
#include "pecheck/accuracy/ulp_kernel.hpp"
#include "pecheck/ulp.hpp"
#include "rounded_edge_counts.hpp"

namespace pecheck::accuracy {
namespace {

constexpr double infinity = std::numeric_limits<double>::infinity();

std::array<double, judged_thresholds> judged_thresholds_with(double budget) {
  const std::vector<double> edges = ulp_histogram_edges();
  std::array<double, judged_thresholds> thresholds{};
  for (std::size_t k = 0; k + 1 < edges.size(); ++k) thresholds[k] = edges[k];
  thresholds.back() = budget;
  return thresholds;
}

// One entry: a value and its exact value.
struct Entry {
  double value;
  DoubleDouble exact;
};

// Entries with the given ulps in float32 (ulp 2^-23 at 1.5): as a
// double-double, any ulps exactly; as a plain double, those whose offset
// x 2^-23 from 1.5 is a double.
Entry with_ulps(double ulps, bool plain) {
  const double offset = std::ldexp(ulps, -23);
  return plain ? Entry{1.5, {1.5 - offset, 0.0}} : Entry{1.5, {1.5, -offset}};
}

std::vector<Entry> entry_pool(const std::array<double, judged_thresholds>& thresholds, bool plain, bool float_values) {
  std::vector<Entry> pool;
  for (const double e : thresholds) {
    pool.push_back(with_ulps(e, plain));
    for (const double step : {0x1p-29, -0x1p-29}) pool.push_back(with_ulps(e + step, plain));
    if (!plain) {
      pool.push_back(with_ulps(std::nextafter(e, infinity), plain));
      pool.push_back(with_ulps(std::nextafter(e, 0.0), plain));
    }
  }
  pool.push_back(with_ulps(0.0, plain));
  pool.push_back(with_ulps(0x1p-1000, plain));  // a subnormal offset (as a double-double)
  pool.push_back({1e30, {1.5, 0.0}});           // about 8e36 ulps
  // Ulps beyond float32's range (the ulp is 2^-149 at 1.5 2^-800) and, with
  // double values, beyond double's (infinite).
  pool.push_back({std::numeric_limits<float>::max(), {0x1.8p-800, 0.0}});
  if (!float_values) pool.push_back({1e300, {0x1.8p-800, 0.0}});
  // Left to the scalar metric.
  pool.push_back({std::nan(""), {1.5, 0.0}});
  pool.push_back({infinity, {1.5, 0.0}});
  pool.push_back({1.5, {0.0, 0.0}});
  pool.push_back({1.5, {0x1p-950, 0.0}});
  return pool;
}

// The kernel's common entries (ulp_kernel.hpp), from the pool's kinds.
bool is_common(const Entry& x) {
  const double sum = std::fabs(x.exact.hi + x.exact.lo);
  return std::isfinite(x.value) && std::fabs(x.exact.hi) >= 0x1p-900 && sum >= 0x1p-900;
}

// Whether a row was seen where an entry may reach floor f ([f][1]) and one where none may ([f][0]).
std::array<std::array<bool, 2>, 3> reached{};

template <typename Value, typename Exact>
void expect_counts_of_the_scalar_metric(const std::array<double, judged_thresholds>& thresholds) {
  constexpr bool float_values = std::is_same_v<Value, float>;
  constexpr bool plain = std::is_same_v<Exact, double>;
  const double budget = thresholds.back();
  const Format& format = format_of(FormatId::float32);
  const std::vector<Entry> pool = entry_pool(thresholds, plain, float_values);
  for (const std::size_t length : {1, 7, 8, 9, 15, 17, 63, 129, 511, 512, 513, 1030}) {
    std::vector<Value> values(length);
    std::vector<Exact> exact(length);
    // Bounds of 0.5 to 2.5 ulps (2^-23 at 1.5): entries beyond the budget within them and not.
    std::vector<double> bounds(length);
    for (std::size_t i = 0; i < length; ++i) bounds[i] = std::ldexp(static_cast<double>(i % 5 + 1), -24);
    std::array<std::int64_t, judged_thresholds> expected{};
    std::int64_t common = 0;
    std::int64_t beyond_bound = 0;
    // Whether an entry beyond the budget may reach each ratio floor (ulp_kernel.cpp's test, in scalar).
    const std::array<double, 3> floors = {-1.0, 1.0, 1e300};
    std::array<bool, 3> may_reach{};
    for (std::size_t i = 0; i < length; ++i) {
      // Every kind of entry in every lane, across lengths.
      const Entry& x = pool[(7 * i + length) % pool.size()];
      values[i] = static_cast<Value>(x.value);
      if constexpr (std::is_same_v<Exact, double>) {
        exact[i] = x.exact.hi;
      } else {
        exact[i] = x.exact;
      }
      if (!is_common(x)) continue;
      ++common;
      const double ulps = ulp_error(static_cast<double>(values[i]), x.exact, format).ulps;
      for (std::size_t k = 0; k < judged_thresholds; ++k) expected[k] += ulps > thresholds[k] ? 1 : 0;
      if (!(ulps > budget)) continue;
      const double abs_error = absolute_error(static_cast<double>(values[i]), x.exact);
      beyond_bound += abs_error <= bounds[i] ? 0 : 1;
      for (std::size_t f = 0; f < floors.size(); ++f) {
        const double least = floors[f] * (1.0 - 0x1p-50) * bounds[i];
        may_reach[f] = may_reach[f] || !(abs_error < least) || least < 0x1p-1000;
      }
    }
    RowJudgement judgement;
    const RowTotals totals = row_ulp_errors_judged(std::span<const Value>(values), std::span<const Exact>(exact),
                                                   format, thresholds, bounds, budget, floors[0], judgement);
    const std::string where = std::string(float_values ? "float" : "double") + " values, " +
                              (plain ? "plain" : "double-double") + " exact, budget " + std::to_string(budget) +
                              ", threshold 5 " + std::to_string(thresholds[5]) + ", length " + std::to_string(length);
    EXPECT_EQ(totals.common, common) << where;
    for (std::size_t k = 0; k < judged_thresholds; ++k) {
      EXPECT_EQ(totals.above[k], expected[k]) << where << ", threshold " << thresholds[k];
    }
    EXPECT_EQ(judgement.beyond, expected.back()) << where;
    EXPECT_EQ(judgement.beyond_bound, beyond_bound) << where;
    for (std::size_t f = 0; f < floors.size(); ++f) {
      RowJudgement at_floor;
      row_ulp_errors_judged(std::span<const Value>(values), std::span<const Exact>(exact), format, thresholds, bounds,
                            budget, floors[f], at_floor);
      EXPECT_EQ(at_floor.may_reach_floor, may_reach[f]) << where << ", ratio floor " << floors[f];
      reached[f][may_reach[f] ? 1 : 0] = true;
    }
  }
}

// Every edge is a float32 at or above 2^-126, and a budget of 2 is counted
// with them: the rows below take the rounded path in an AVX-512 build.
TEST(JudgedEdgeCounts, theHistogramEdgesMayBeCountedRounded) {
  // The usual edges, worked out once, are the histogram's.
  const std::vector<double> edges = ulp_histogram_edges();
  ASSERT_EQ(edges.size(), usual_edges.size() + 1);
  for (std::size_t k = 0; k < usual_edges.size(); ++k) EXPECT_EQ(usual_edges[k], edges[k]);
  EXPECT_TRUE(usual_rounded_edges.apply && usual_rounded_edges.keyed);
  EXPECT_EQ(usual_rounded_edges.wide, 5U);  // 0.5 + 2^-20, the one edge not a bfloat16
  EXPECT_TRUE(rounded_edges_apply(judged_thresholds_with(2.0), 2.0));
  EXPECT_FALSE(rounded_edges_apply(judged_thresholds_with(2.0), 3.0));  // the last threshold is not the budget
  EXPECT_FALSE(rounded_edges_apply(judged_thresholds_with(-1.0), -1.0));
  std::array<double, judged_thresholds> thresholds = judged_thresholds_with(2.0);
  thresholds[5] = 0.5 + 0x1p-30;  // not a float32
  EXPECT_FALSE(rounded_edges_apply(thresholds, 2.0));
  thresholds[5] = 0x1p-127;  // below float32's smallest normal
  EXPECT_FALSE(rounded_edges_apply(thresholds, 2.0));
}

TEST(JudgedEdgeCounts, everyKernelCountsEveryEdgeAsTheScalarMetric) {
  std::vector<std::array<double, judged_thresholds>> cases;
  // A budget of 2 (an edge too), of 1, and one not a float32 (the budget is
  // counted apart from the edges: still the rounded path).
  for (const double budget : {2.0, 1.0, 2.0 + 0x1p-40}) cases.push_back(judged_thresholds_with(budget));
  // An edge not a float32: the doubles' path.
  cases.push_back(judged_thresholds_with(2.0));
  cases.back()[5] = 0.5 + 0x1p-30;
  // Every edge a bfloat16 (all compared as 16-bit keys but the last), and
  // two edges not bfloat16 (every edge compared as a float32): the rounded
  // path's other two ways (rounded_edge_counts.hpp).
  cases.push_back(judged_thresholds_with(2.0));
  cases.back()[5] = 0.625;
  cases.push_back(judged_thresholds_with(2.0));
  cases.back()[6] = 0.75 + 0x1p-20;
  for (const std::array<double, judged_thresholds>& thresholds : cases) {
    expect_counts_of_the_scalar_metric<float, DoubleDouble>(thresholds);
    expect_counts_of_the_scalar_metric<double, DoubleDouble>(thresholds);
    expect_counts_of_the_scalar_metric<float, double>(thresholds);
    expect_counts_of_the_scalar_metric<double, double>(thresholds);
  }
  // Both outcomes at a floor of 1 (at -1 every entry beyond the budget may reach it, at 1e300 none).
  EXPECT_TRUE(reached[1][0] && reached[1][1]);
  EXPECT_TRUE(reached[0][1] && reached[2][0]);
}

}  // namespace
}  // namespace pecheck::accuracy
