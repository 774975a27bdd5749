// The exact arithmetic and tail bounds the scaling-variance and add-vs-concat
// checks decide their claims with.
#include "pecheck/properties/exact_arithmetic.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "pecheck/embedding.hpp"
#include "pecheck/properties/tail_bounds.hpp"

namespace pecheck::properties {
namespace {

TEST(ExactSum, keepsWhatDoubleAdditionLoses) {
  ExactSum sum;
  sum.add(1e100);
  sum.add(1.0);
  sum.add(-1e100);
  EXPECT_FALSE(sum.is_zero());
  EXPECT_EQ(sum.approximate(), 1.0);
  sum.add(-1.0);
  EXPECT_TRUE(sum.is_zero());
}

TEST(ExactSum, holdsProductsExactly) {
  // (1 + 2^-30)^2 = 1 + 2^-29 + 2^-60: the last term is below double's reach beside 1.
  const double a = 1.0 + 0x1p-30;
  ExactSum sum;
  sum.add_product(a, a);
  sum.add(-1.0);
  sum.add(-0x1p-29);
  EXPECT_EQ(sum.approximate(), 0x1p-60);
  sum.add(-0x1p-60);
  EXPECT_TRUE(sum.is_zero());
}

TEST(RankLowerBound, findsTheRankOfDyadicMatrices) {
  EXPECT_EQ(rank_lower_bound({1, 0, 0, 0, 1, 0, 0, 0, 1}, 3, 3), 3);
  // The third row is exactly the sum of the first two, entries 2^1900 apart in magnitude.
  EXPECT_EQ(rank_lower_bound({0x1p-1000, 0x1p900, 0.5, 0x1p-1000, -0x1p899, 0.25, 0x1p-999, 0x1p899, 0.75}, 3, 3), 2);
  EXPECT_EQ(rank_lower_bound({0, 0, 0, 0}, 2, 2), 0);
  EXPECT_EQ(rank_lower_bound({1, 2, 3, 2, 4, 6}, 2, 3), 1);
  // Independent rows a numerical rank (singular values against a tolerance) would call dependent: det = 2^-52.
  EXPECT_EQ(rank_lower_bound({1.0, 1.0, 1.0, 1.0 + 0x1p-52}, 2, 2), 2);
  EXPECT_THROW(rank_lower_bound({1.0, INFINITY}, 1, 2), std::invalid_argument);
}

TEST(IntegerSqrtRounded, agreesWithLibsVerifiedSqrtAndBreaksTiesToEven) {
  for (FormatId id : {FormatId::float64, FormatId::float32, FormatId::float16, FormatId::bfloat16}) {
    for (std::int64_t d = 1; d <= 20000; d += 7) {
      ASSERT_EQ(integer_sqrt_rounded(d, format_of(id)), correctly_rounded_sqrt(d, id)) << d;
    }
  }
  EXPECT_EQ(integer_sqrt_rounded(257 * 257, format_of(FormatId::bfloat16)), 256.0);
  EXPECT_EQ(integer_sqrt_rounded(259 * 259, format_of(FormatId::bfloat16)), 260.0);
  EXPECT_EQ(integer_sqrt_rounded(3072, format_of(FormatId::bfloat16)), 55.5);
}

TEST(TailBounds, chiSquareIntervalContainsTheMeanAndNarrowsAsOneOverRootK) {
  const Interval small = chi_square_mean_interval(1000.0, 1e-9);
  const Interval large = chi_square_mean_interval(100000.0, 1e-9);
  EXPECT_TRUE(small.contains(1.0));
  EXPECT_TRUE(large.contains(1.0));
  // 2 sqrt(t/k) with t = ln(2e9) = 21.42: 0.2927 at k = 1000, ten times less at 100 k.
  EXPECT_NEAR(1.0 - small.lower, 2.0 * std::sqrt(std::log(2e9) / 1000.0), 1e-12);
  EXPECT_NEAR((1.0 - small.lower) / (1.0 - large.lower), 10.0, 1e-9);
}

TEST(TailBounds, cosineBoundFollowsTheCapBound) {
  // 2 exp(-d c^2 / 2) pairs = delta at the returned c.
  const double c = cosine_union_bound(1024.0, 16384.0, 1e-9);
  EXPECT_NEAR(2.0 * std::exp(-1024.0 * c * c / 2.0) * 16384.0, 1e-9, 1e-15);
  EXPECT_NEAR(gamma_n(10.0, 0x1p-24), 10.0 * 0x1p-24 / (1.0 - 10.0 * 0x1p-24), 1e-20);
}

}  // namespace
}  // namespace pecheck::properties
