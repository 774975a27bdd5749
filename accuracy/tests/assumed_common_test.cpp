// The ULP kernels' first pass takes a row's full vectors as common entries
// without the range test, and passes the row again, tested, when the
// extremes it gathered say an entry may be out of range (ulp_kernel.cpp,
// Assumed). Here each way an entry leaves the range, alone in a row's first
// vector: the row's totals must leave that one entry out (common one less
// than the row), as the tested, storing pass does, plain and judged, for
// plain and double-double exact values; and a row with no such entry must be
// counted whole.
#include <gtest/gtest.h>

#include <array>
#include <cmath>
#include <limits>
#include <span>
#include <string>
#include <vector>

#include "pecheck/accuracy/measurement.hpp"
#include "pecheck/accuracy/ulp_kernel.hpp"
#include "pecheck/ulp.hpp"

namespace pecheck::accuracy {
namespace {

constexpr double infinity = std::numeric_limits<double>::infinity();
constexpr std::array<double, row_thresholds> thresholds = {0.0625, 0.25, 0.5, 1.0, 2.0};

std::array<double, judged_thresholds> judged() {
  const std::vector<double> edges = ulp_histogram_edges();
  std::array<double, judged_thresholds> out{};
  for (std::size_t k = 0; k + 1 < edges.size(); ++k) out[k] = edges[k];
  out.back() = 2.0;
  return out;
}

struct OutOfRange {
  std::string why;
  double value;
  DoubleDouble exact;
  bool plain_too;  // the case exists with a plain-double exact value (lo = 0)
};

const OutOfRange cases[] = {
    {"NaN value", std::nan(""), {0.75, 0.0}, true},
    {"infinite value", infinity, {0.75, 0.0}, true},
    {"exact zero", 0.0, {0.0, 0.0}, true},
    {"exact below 2^-900", 0x1p-901, {0x1p-901, 0.0}, true},
    {"exact above 2^1000", 0x1p1001, {0x1p1001, 0.0}, true},
    {"NaN exact", 0.75, {std::nan(""), 0.0}, true},
    {"NaN tail", 0.75, {0.75, std::nan("")}, false},
    {"infinite tail", 0.75, {0.75, infinity}, false},
    {"hi + lo below 2^-900", 0x1p-899, {0x1p-899, -0x1.8p-900}, false},
    {"hi + lo above 2^1000", 0x1p1000, {0x1p1000, 0x1p1000}, false},
};

// Row totals of 13 entries, 0.75 within a few ulps of their exact values but
// entry 3 (in the first full vector), with the plain and the judged pass.
template <typename Exact>
void expect_entry_left_out(const OutOfRange& c, const Exact& odd_exact) {
  const Format& format = format_of(FormatId::float64);
  constexpr std::size_t n = 13;
  std::vector<double> values(n);
  std::vector<Exact> exact(n);
  for (std::size_t e = 0; e < n; ++e) {
    values[e] = 0.75;
    exact[e] = Exact{0.75 + static_cast<double>(e) * 0x1p-53};
  }
  values[3] = c.value;
  exact[3] = odd_exact;
  const std::vector<double> bounds(n, 0x1p-40);
  std::vector<double> ulps(n), abs_error(n);
  std::vector<unsigned char> common(n);
  const RowErrors store{ulps.data(), abs_error.data(), common.data()};
  const RowTotals tested =
      row_ulp_errors(std::span<const double>(values), std::span<const Exact>(exact), format, thresholds, &store);
  const RowTotals first =
      row_ulp_errors(std::span<const double>(values), std::span<const Exact>(exact), format, thresholds);
  RowJudgement judgement;
  const RowTotals judged_row = row_ulp_errors_judged(std::span<const double>(values), std::span<const Exact>(exact),
                                                     format, judged(), bounds, 2.0, -1.0, judgement);
  EXPECT_EQ(common[3], 0) << c.why;
  EXPECT_EQ(tested.common, static_cast<std::int64_t>(n) - 1) << c.why;
  EXPECT_EQ(first.common, tested.common) << c.why;
  EXPECT_EQ(first.min_exact_magnitude, tested.min_exact_magnitude) << c.why;
  EXPECT_EQ(first.max_ulps, tested.max_ulps) << c.why;
  EXPECT_EQ(first.above, tested.above) << c.why;
  EXPECT_EQ(judged_row.common, tested.common) << c.why;
  EXPECT_EQ(judged_row.min_exact_magnitude, tested.min_exact_magnitude) << c.why;
}

TEST(AssumedCommon, anEntryOutOfRangeInAFullVectorIsLeftOut) {
  for (const OutOfRange& c : cases) {
    expect_entry_left_out<DoubleDouble>(c, c.exact);
    if (c.plain_too) expect_entry_left_out<double>(c, c.exact.hi);
  }
}

TEST(AssumedCommon, aRowWithinRangeIsCountedWhole) {
  const Format& format = format_of(FormatId::float64);
  for (const std::size_t n : {std::size_t{8}, std::size_t{13}, std::size_t{64}}) {
    std::vector<double> values(n, 0.75);
    std::vector<DoubleDouble> exact(n, DoubleDouble{0.75, 0x1p-60});
    // The range's own edges are inside it.
    exact[0] = {0x1p-900, 0.0};
    values[0] = 0x1p-900;
    exact[1] = {0x1p1000, 0.0};
    values[1] = 0x1p1000;
    const RowTotals totals =
        row_ulp_errors(std::span<const double>(values), std::span<const DoubleDouble>(exact), format, thresholds);
    EXPECT_EQ(totals.common, static_cast<std::int64_t>(n));
    EXPECT_EQ(totals.min_exact_magnitude, 0x1p-900);
  }
}

}  // namespace
}  // namespace pecheck::accuracy
