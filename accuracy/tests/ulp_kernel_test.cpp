// The vectorised ULP kernel against the scalar metric (lib/ulp.hpp), entry by
// entry and bit for bit, at the binade edges of every format: exact values at
// and just either side of powers of two (with tails of either sign, the case
// where fl(hi + lo) is a power of two and the exact value below it), in the
// format's subnormal range and at its smallest normal, and at the edges of the
// kernel's own range (2^-900, 2^1000). Entries outside that range, zeros, NaN
// and infinities must be left to the scalar metric (not "common").
#include <gtest/gtest.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <limits>
#include <vector>

#include "pecheck/accuracy/ulp_kernel.hpp"
#include "pecheck/ulp.hpp"

namespace pecheck::accuracy {
namespace {

constexpr double infinity = std::numeric_limits<double>::infinity();
constexpr std::array<double, row_thresholds> thresholds = {0.0625, 0.25, 0.5, 1.0, 2.0};

bool same_bits(double a, double b) { return std::bit_cast<std::uint64_t>(a) == std::bit_cast<std::uint64_t>(b); }

// Exact values at the binade edges that matter in `format`, both signs.
std::vector<DoubleDouble> edge_exact_values(const Format& format) {
  std::vector<int> exponents = {0, -1, 1, 5, -20, format.min_exponent, format.min_exponent + 1,
                                format.min_exponent - 1, format.min_exponent - format.precision + 1,
                                format.min_exponent - format.precision + 2, -900, -899, 999, 1000, -901, 1001};
  std::vector<DoubleDouble> out;
  for (int k : exponents) {
    const double power = std::ldexp(1.0, k);
    for (const double sign : {1.0, -1.0}) {
      const double p = sign * power;
      const double tail = std::ldexp(p, -60);
      for (DoubleDouble x : {DoubleDouble{p, 0.0}, DoubleDouble{p, tail}, DoubleDouble{p, -tail},
                             DoubleDouble{std::nextafter(p, 0.0), 0.0}, DoubleDouble{std::nextafter(p, 2 * p), -tail},
                             DoubleDouble{p * 1.7, tail}, DoubleDouble{p, -std::ldexp(p, -106)}}) {
        out.push_back(x);
      }
    }
  }
  for (const DoubleDouble x : {DoubleDouble{0.0, 0.0}, DoubleDouble{-0.0, 0.0}, DoubleDouble{infinity, 0.0},
                               DoubleDouble{std::nan(""), 0.0}, DoubleDouble{0x1p-1074, 0.0}, DoubleDouble{1.0, infinity}}) {
    out.push_back(x);
  }
  return out;
}

// Values near each exact value: its rounding to the format and a few of the
// format's ulps either side, then the special values.
void entries_near(const Format& format, const std::vector<DoubleDouble>& exact_values, std::vector<double>& values,
                  std::vector<DoubleDouble>& exact) {
  for (const DoubleDouble& x : exact_values) {
    const double r = std::isfinite(x.hi) ? round_to_format(x.hi, format) : x.hi;
    const double u = std::isfinite(x.hi) ? ulp_of(x, format) : 1.0;
    for (const double v : {r, r + u, r - u, r + 3 * u, -r, 0.0, -0.0, infinity, std::nan("")}) {
      values.push_back(v);
      exact.push_back(x);
    }
  }
}

bool in_kernel_range(double value, DoubleDouble exact) {
  const double magnitude = std::fabs(exact.hi);
  const double sum = std::fabs(exact.hi + exact.lo);
  return std::isfinite(value) && std::isfinite(exact.lo) && magnitude >= 0x1p-900 && magnitude <= 0x1p1000 &&
         sum >= 0x1p-900 && sum <= 0x1p1000;
}

// Runs the kernel over rows of 13 entries (a full vector and a tail) and
// compares each entry and each row's totals with the scalar metric.
template <typename Value>
void expect_kernel_matches_scalar(const Format& format, const std::vector<double>& all_values,
                                  const std::vector<DoubleDouble>& all_exact) {
  constexpr std::size_t row_length = 13;
  int common_seen = 0;
  for (std::size_t start = 0; start < all_values.size(); start += row_length) {
    const std::size_t n = std::min(row_length, all_values.size() - start);
    std::vector<Value> values(n);
    for (std::size_t e = 0; e < n; ++e) values[e] = static_cast<Value>(all_values[start + e]);
    const std::span<const DoubleDouble> exact(all_exact.data() + start, n);
    std::vector<double> ulps(n), abs_error(n);
    std::vector<unsigned char> common(n);
    const RowErrors store{ulps.data(), abs_error.data(), common.data()};
    const RowTotals stored = row_ulp_errors(std::span<const Value>(values), exact, format, thresholds, &store);
    const RowTotals totals = row_ulp_errors(std::span<const Value>(values), exact, format, thresholds);
    RowTotals expected;
    for (std::size_t e = 0; e < n; ++e) {
      const double value = static_cast<double>(values[e]);
      SCOPED_TRACE(testing::Message() << format.name << " value " << std::hexfloat << value << " exact " << exact[e].hi
                                      << " + " << exact[e].lo);
      ASSERT_EQ(common[e] != 0, in_kernel_range(value, exact[e]));
      expected.largest_value_bits =
          std::max(expected.largest_value_bits, std::bit_cast<std::uint64_t>(std::fabs(value)));
      if (common[e] == 0) {
        EXPECT_EQ(ulps[e], 0.0);
        continue;
      }
      ++common_seen;
      const UlpError scalar = ulp_error(value, exact[e], format);
      ASSERT_EQ(scalar.mismatch, Mismatch::none);
      EXPECT_TRUE(same_bits(ulps[e], scalar.ulps)) << ulps[e] << " against " << scalar.ulps;
      EXPECT_TRUE(same_bits(abs_error[e], absolute_error(value, exact[e])));
      ++expected.common;
      expected.max_ulps = std::max(expected.max_ulps, scalar.ulps);
      expected.max_abs_error = std::max(expected.max_abs_error, abs_error[e]);
      expected.min_exact_magnitude = std::min(expected.min_exact_magnitude, std::fabs(exact[e].hi));
      for (std::size_t k = 0; k < row_thresholds; ++k) expected.above[k] += scalar.ulps > thresholds[k] ? 1 : 0;
    }
    for (const RowTotals* t : {&stored, &totals}) {
      EXPECT_EQ(t->common, expected.common);
      EXPECT_EQ(t->max_ulps, expected.max_ulps);
      EXPECT_EQ(t->max_abs_error, expected.max_abs_error);
      EXPECT_EQ(t->min_exact_magnitude, expected.min_exact_magnitude);
      EXPECT_EQ(t->above, expected.above);
      EXPECT_EQ(t->largest_value_bits, expected.largest_value_bits);
    }
    EXPECT_TRUE(same_bits(stored.squares, totals.squares));  // storing changes nothing
  }
  EXPECT_GT(common_seen, 100) << "the edges must exercise the kernel itself";
}

TEST(UlpKernel, equalsTheScalarMetricAtBinadeEdgesInEveryFormat) {
  for (FormatId id : {FormatId::float64, FormatId::float32, FormatId::float16, FormatId::bfloat16}) {
    const Format& format = format_of(id);
    std::vector<double> values;
    std::vector<DoubleDouble> exact;
    entries_near(format, edge_exact_values(format), values, exact);
    expect_kernel_matches_scalar<double>(format, values, exact);
  }
}

TEST(UlpKernel, readsFloatValuesAsTheirDoubles) {
  const Format& format = format_of(FormatId::float32);
  std::vector<double> values;
  std::vector<DoubleDouble> exact;
  entries_near(format, edge_exact_values(format), values, exact);
  expect_kernel_matches_scalar<float>(format, values, exact);
}

TEST(UlpKernel, plainExactValuesGiveTheSameFiguresAsDoubleDoublesWithZeroTails) {
  const Format& format = format_of(FormatId::float32);
  std::vector<double> plain;
  std::vector<DoubleDouble> pairs;
  std::vector<double> values;
  for (int k = -30; k < 3; ++k) {
    const double x = std::ldexp(1.0 + k / 64.0, k);
    plain.push_back(x);
    pairs.push_back({x, 0.0});
    values.push_back(round_to_format(x * (1 + 0x1p-22), format));
  }
  std::vector<double> ulps_plain(values.size()), ulps_pairs(values.size()), abs_plain(values.size()),
      abs_pairs(values.size());
  std::vector<unsigned char> common_plain(values.size()), common_pairs(values.size());
  const RowErrors store_plain{ulps_plain.data(), abs_plain.data(), common_plain.data()};
  const RowErrors store_pairs{ulps_pairs.data(), abs_pairs.data(), common_pairs.data()};
  const RowTotals a = row_ulp_errors(std::span<const double>(values), std::span<const double>(plain), format,
                                     thresholds, &store_plain);
  const RowTotals b = row_ulp_errors(std::span<const double>(values), std::span<const DoubleDouble>(pairs), format,
                                     thresholds, &store_pairs);
  EXPECT_EQ(ulps_plain, ulps_pairs);
  EXPECT_EQ(abs_plain, abs_pairs);
  EXPECT_TRUE(same_bits(a.squares, b.squares));
  EXPECT_EQ(a.common, static_cast<std::int64_t>(values.size()));
}

}  // namespace
}  // namespace pecheck::accuracy
