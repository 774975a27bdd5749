// Double-double arithmetic, exp, log and the derived constants, against GCC's
// 113-bit __float128. The quad results are within about 2^-111 of the truth,
// so errors are measured down to roughly that level.
#include "pecheck/double_double_math.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <random>

#include "fast_constants.hpp"
#include "quad_reference.hpp"
#include "test_seed.hpp"

namespace pecheck {
namespace {

using testing::Quad;

Quad as_quad(DoubleDouble x) { return static_cast<Quad>(x.hi) + static_cast<Quad>(x.lo); }

double relative_error(DoubleDouble computed, Quad exact) {
  return static_cast<double>(fabsq(as_quad(computed) - exact) / fabsq(exact));
}

double log2_or_floor(double error) { return error == 0 ? -200.0 : std::log2(error); }

// A double-double with a random low part, |lo| <= ulp(hi)/2.
DoubleDouble random_double_double(std::mt19937_64& rng, double hi) {
  std::uniform_real_distribution<double> unit(-0.5, 0.5);
  const double lo = unit(rng) * std::ldexp(1.0, std::ilogb(hi) - 52);
  return quick_two_sum(hi, lo);
}

TEST(DoubleDoubleMath, arithmeticIsAccurateTo2ToThe103) {
  std::mt19937_64 rng(testing::seed("DoubleDoubleMath.arithmetic"));
  std::uniform_real_distribution<double> mantissa(1.0, 2.0);
  std::uniform_int_distribution<int> exponent(-20, 20);
  double worst = 0.0;
  for (int n = 0; n < 20000; ++n) {
    const DoubleDouble a = random_double_double(rng, std::ldexp(mantissa(rng), exponent(rng)));
    const DoubleDouble b = random_double_double(rng, std::ldexp(mantissa(rng) - 3.0, exponent(rng)));
    const double d = std::ldexp(mantissa(rng), exponent(rng));
    // The published bounds (double_double_math.hpp) are at most 7u^2 < 2^-103;
    // the quad products and sums below are exact or within 2^-112.
    worst = std::max({worst, relative_error(dd_add(a, b), as_quad(a) + as_quad(b)),
                      relative_error(dd_add(a, d), as_quad(a) + d), relative_error(dd_mul(a, b), as_quad(a) * as_quad(b)),
                      relative_error(dd_mul(a, d), as_quad(a) * d), relative_error(dd_div(a, d), as_quad(a) / d)});
  }
  std::printf("double-double add/mul/div: max relative error 2^%.2f\n", log2_or_floor(worst));
  EXPECT_LE(worst, std::ldexp(1.0, -103));
}

TEST(DoubleDoubleMath, expIsAccurateTo2ToThe102OnMinus40To40) {
  std::mt19937_64 rng(testing::seed("DoubleDoubleMath.exp"));
  std::uniform_real_distribution<double> argument(-40.0, 40.0);
  double worst = 0.0;
  double worst_x = 0.0;
  for (int n = 0; n < 20000; ++n) {
    double hi = argument(rng);
    if (n < 2000) hi = std::ldexp(hi, -(n % 60));  // small arguments too
    const DoubleDouble x = random_double_double(rng, hi);
    const double error = relative_error(dd_exp(x), expq(as_quad(x)));
    if (error > worst) {
      worst = error;
      worst_x = x.hi;
    }
  }
  std::printf("dd_exp on [-40, 40]: max relative error 2^%.2f at x = %a\n", log2_or_floor(worst), worst_x);
  EXPECT_LE(worst, std::ldexp(1.0, -102));
  EXPECT_EQ(dd_exp(DoubleDouble{0.0, 0.0}).hi, 1.0);
  EXPECT_EQ(dd_exp(DoubleDouble{0.0, 0.0}).lo, 0.0);
  EXPECT_THROW(dd_exp(DoubleDouble{701.0, 0.0}), std::domain_error);
  EXPECT_THROW(dd_exp(DoubleDouble{NAN, 0.0}), std::domain_error);
}

TEST(DoubleDoubleMath, logHasAbsoluteError2ToThe102) {
  std::mt19937_64 rng(testing::seed("DoubleDoubleMath.log"));
  std::uniform_real_distribution<double> log_argument(-40.0, 40.0);
  double worst = 0.0;
  double worst_a = 0.0;
  for (int n = 0; n < 20000; ++n) {
    const double a = n < 3 ? (n == 0 ? 10000.0 : n == 1 ? 2.0 : 1.0 + 0x1p-30) : std::exp(log_argument(rng));
    const DoubleDouble x = n < 3 ? DoubleDouble{a, 0.0} : random_double_double(rng, a);
    const double error = static_cast<double>(fabsq(as_quad(dd_log(x)) - logq(as_quad(x))));
    if (error > worst) {
      worst = error;
      worst_a = a;
    }
  }
  std::printf("dd_log on [e^-40, e^40]: max absolute error 2^%.2f at a = %a\n", log2_or_floor(worst), worst_a);
  EXPECT_LE(worst, std::ldexp(1.0, -102));
  EXPECT_EQ(dd_log(DoubleDouble{1.0, 0.0}).hi, 0.0);
  EXPECT_THROW(dd_log(DoubleDouble{0.0, 0.0}), std::domain_error);
  EXPECT_THROW(dd_log(DoubleDouble{-1.0, 0.0}), std::domain_error);
}

// The constants were derived in Python's decimal; this checks them against an
// independent evaluation. A double-double nearest to x is within 2^-106 |x|
// (plus the quad's 2^-112); each polynomial coefficient is the double nearest
// its Taylor coefficient, within half an ulp.
TEST(FastConstants, agreeWithA113BitEvaluation) {
  namespace fc = fast_constants;
  const Quad pi = testing::quad_pi();
  const double dd_bound = std::exp2(-105.5);
  EXPECT_LE(relative_error({fc::inv_two_pi_hi, fc::inv_two_pi_lo}, 1 / (2 * pi)), dd_bound);
  EXPECT_LE(relative_error({fc::s1_hi, fc::s1_lo}, 2 * pi), dd_bound);
  EXPECT_LE(relative_error({fc::c2_hi, fc::c2_lo}, -2 * pi * pi), dd_bound);
  EXPECT_LE(static_cast<double>(fabsq(static_cast<Quad>(fc::ln2_1) + fc::ln2_2 + fc::ln2_3 - logq(2))),
            std::ldexp(1.0, -111));
  for (int n = 0; n < 24; ++n) {
    Quad factorial = 1;
    for (int k = 2; k <= n; ++k) factorial *= k;
    EXPECT_LE(relative_error({fc::inv_factorial[n][0], fc::inv_factorial[n][1]}, 1 / factorial), dd_bound) << n;
  }
  const auto nearest = [](double coefficient, Quad exact) {
    return static_cast<double>(fabsq(coefficient - exact)) <= std::ldexp(std::fabs(coefficient), -53);
  };
  Quad power = 2 * pi;  // (2 pi)^k / k!
  for (int k = 2; k <= 18; ++k) {
    power *= 2 * pi / k;
    const Quad term = (k / 2) % 2 == 0 ? power : -power;
    if (k % 2 == 1) {
      EXPECT_TRUE(nearest(fc::sin_tail[(k - 3) / 2], term)) << "s" << k;
    } else if (k >= 4) {
      EXPECT_TRUE(nearest(fc::cos_tail[(k - 4) / 2], term)) << "c" << k;
    }
  }
  EXPECT_TRUE(nearest(fc::three_s3, -3 * (2 * pi) * (2 * pi) * (2 * pi) / 6));
}

}  // namespace
}  // namespace pecheck
