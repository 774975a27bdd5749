// The first step's rounding decision against MPFR's rounding of both ends of
// the enclosure, in every format, at the binade edges (powers of two, where
// the spacing below halves), around the smallest normal, through the
// subnormals, at and beside every kind of midpoint, for error radii from 0
// to several quanta: whatever it decides must be what both ends round to.
#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <random>
#include <vector>

#include "../src/enclosure_decision.hpp"
#include "../src/format_rounding.hpp"
#include "independent_oracle.hpp"

namespace pecheck::reference {
namespace {

bool same_bits(double a, double b) { return std::bit_cast<std::uint64_t>(a) == std::bit_cast<std::uint64_t>(b); }

// The format's spacing in the binade of x.
double spacing(double x, const Format& format) {
  return std::ldexp(1.0, std::max(std::ilogb(x), format.min_exponent) - (format.precision - 1));
}

struct Tally {
  int decided = 0;
  int undecided = 0;
};

// Checks one enclosure; returns whether it was decided.
bool check(DoubleWord v, double error, const Format& format, RoundingScratch& scratch) {
  Real lower = make_real(2400);  // v.hi + v.lo - error exactly, whatever the exponents
  Real upper = make_real(2400);
  mpfr_set_d(raw(lower), v.hi, MPFR_RNDN);
  mpfr_add_d(raw(lower), raw(lower), v.lo, MPFR_RNDN);
  mpfr_set(raw(upper), raw(lower), MPFR_RNDN);
  mpfr_sub_d(raw(lower), raw(lower), error, MPFR_RNDN);
  mpfr_add_d(raw(upper), raw(upper), error, MPFR_RNDN);
  const double low = round_to_format(raw(lower), format, scratch);
  const double high = round_to_format(raw(upper), format, scratch);
  const std::optional<double> decided = decided_rounding(v, error, format);
  if (decided) {
    EXPECT_TRUE(same_bits(*decided, low) && same_bits(*decided, high))
        << format.name << ": v = " << hex_float(v.hi) << " + " << hex_float(v.lo) << ", error " << hex_float(error)
        << " decided " << hex_float(*decided) << " but the ends round to " << hex_float(low) << " and "
        << hex_float(high);
  }
  return decided.has_value();
}

TEST(EnclosureDecision, decidesOnlyWhatBothEndsRoundToAtBinadeEdgesAndSubnormals) {
  RoundingScratch scratch;
  std::mt19937_64 random(11);
  for (const Format* format : testing::all_formats) {
    const Format& f = *format;
    // Binades: around 1 (cos near 0), mid-range, the smallest normal and below it.
    std::vector<int> binades = {0, -1, -2, -13, f.min_exponent + 1, f.min_exponent, f.min_exponent - 1,
                                f.min_exponent - 3, f.min_exponent - (f.precision - 2),
                                f.min_exponent - f.precision, f.min_exponent - f.precision - 3};
    Tally tally;
    for (int binade : binades) {
      for (double sign : {1.0, -1.0}) {
        const double edge = sign * std::ldexp(1.0, binade);
        const double step = spacing(std::fabs(edge), f);
        const double step_below = binade > f.min_exponent ? step / 2 : step;
        // Format values at and around the edge, and the midpoints between them.
        const std::vector<double> anchors = {edge,
                                             edge + sign * step,
                                             edge - sign * step_below,
                                             edge + sign * step / 2,
                                             edge - sign * step_below / 2,
                                             edge + sign * 1.5 * step};
        for (double anchor : anchors) {
          for (double fraction : {0.0, 0x1p-60, -0x1p-60, 0x1p-30, -0x1p-30, 0.25, -0.25, 0.49, -0.49}) {
            for (double radius : {0.0, 0x1p-70, 0x1p-40, 0x1p-10, 0.3, 0.6, 2.0}) {
              const DoubleWord v = exact_sum(anchor, fraction * step);
              const bool decided = check(v, radius * step, f, scratch);
              ++(decided ? tally.decided : tally.undecided);
            }
          }
        }
      }
    }
    // Random values in random binades across the range the encodings reach.
    std::uniform_int_distribution<int> binade(f.min_exponent - f.precision, 0);
    std::uniform_real_distribution<double> unit(1.0, 2.0);
    for (int k = 0; k < 20000; ++k) {
      const double x = std::ldexp(unit(random), binade(random)) * (k % 2 ? -1 : 1);
      const double step = spacing(std::fabs(x), f);
      const DoubleWord v = exact_sum(x, std::ldexp(unit(random), -60) * step);
      const bool decided = check(v, std::ldexp(unit(random), -40 - k % 30) * step, f, scratch);
      ++(decided ? tally.decided : tally.undecided);
    }
    // Useful too: most of these enclosures are far inside one rounding interval.
    EXPECT_GT(tally.decided, 2 * tally.undecided) << f.name;
  }
}

// An enclosure around a midpoint, a tie or zero is never decided; one below
// half the smallest subnormal rounds to the zero of its sign.
TEST(EnclosureDecision, refusesTiesZeroAndNonFiniteEnclosures) {
  const Format& float16 = *testing::all_formats[2];
  const std::optional<double> tiny = decided_rounding(DoubleWord{-1e-8, 0.0}, 1e-20, float16);
  ASSERT_TRUE(tiny);
  EXPECT_TRUE(same_bits(*tiny, -0.0));
  EXPECT_FALSE(decided_rounding(DoubleWord{1e-20, 0.0}, 1e-19, float16));
  const Format& float32 = *testing::all_formats[1];
  const double midpoint = 1.0 + 0x1p-24;  // between 1 and its float32 successor
  EXPECT_FALSE(decided_rounding(DoubleWord{midpoint, 0.0}, 0.0, float32));
  EXPECT_FALSE(decided_rounding(DoubleWord{midpoint, 0.0}, 0x1p-80, float32));
  EXPECT_TRUE(decided_rounding(DoubleWord{midpoint, 0x1p-80}, 0x1p-90, float32));
  EXPECT_FALSE(decided_rounding(DoubleWord{0.0, 0.0}, 0.0, float32));
  EXPECT_FALSE(decided_rounding(DoubleWord{0.5, 0.0}, INFINITY, float32));
  const Format& float64 = *testing::all_formats[0];
  EXPECT_FALSE(decided_rounding(DoubleWord{1.0, 0x1p-53}, 0.0, float64));  // the float64 midpoint above 1
  EXPECT_TRUE(decided_rounding(DoubleWord{1.0, 0x1p-54}, 0x1p-60, float64));
  EXPECT_FALSE(decided_rounding(DoubleWord{1.0, -0x1p-54}, 0.0, float64));  // the midpoint below 1
}

TEST(EnclosureDecision, acceptsAnExactValueOnlyWithin2ToMinus100) {
  EXPECT_TRUE(good_as_exact(DoubleWord{0.75, 0.0}, 0x1p-102));
  EXPECT_FALSE(good_as_exact(DoubleWord{0.75, 0.0}, 0x1p-100));
  EXPECT_FALSE(good_as_exact(DoubleWord{0.75, 0.0}, INFINITY));
}

// within_relative must accept an enclosure only when the value is within
// the tolerance of every point of it, relative to that point: checked in
// 300-digit arithmetic against the point nearest zero, for the tolerances
// exact_tolerance gives (2^-(p + 20) for float32, float16, bfloat16) and
// errors at and around the tolerance times |v|. The test it replaced,
// error <= tolerance |v| (1 - 2^-50), accepts errors up to a relative
// 2^-44 too large for float32's tolerance: the first expectation below.
TEST(EnclosureDecision, acceptsAnExactValueOnlyWithinTheToleranceOfEveryPoint) {
  testing::use_decimal_digits(300);
  const double v = 0.8125;
  const double tolerance = 0x1p-44;
  EXPECT_FALSE(within_relative(v, tolerance * v * (1.0 - 0x1p-50), tolerance));
  EXPECT_TRUE(within_relative(v, tolerance * v * (1.0 - 0x1p-42), tolerance));
  EXPECT_FALSE(within_relative(v, INFINITY, tolerance));
  EXPECT_FALSE(within_relative(v, NAN, tolerance));
  EXPECT_FALSE(within_relative(v, 2.0 * v, tolerance));

  std::mt19937_64 random(20261124);
  std::uniform_real_distribution<double> mantissa(1.0, 2.0);
  std::uniform_int_distribution<int> exponent(-60, 0);
  std::uniform_real_distribution<double> around(1.0 - 0x1p-30, 1.0 + 0x1p-30);
  int accepted = 0;
  int refused = 0;
  for (const int precision : {24, 11, 8}) {
    const double tol = std::ldexp(1.0, -(precision + 20));
    for (int k = 0; k < 20000; ++k) {
      const double value = std::ldexp(mantissa(random), exponent(random)) * (k % 2 == 0 ? 1.0 : -1.0);
      const double error = tol * std::fabs(value) * around(random);
      if (!within_relative(value, error, tol)) {
        ++refused;
        continue;
      }
      ++accepted;
      // The point of the enclosure nearest zero is the hardest: error <= tol |x| there.
      const testing::HighReal nearest = abs(testing::HighReal(value)) - testing::HighReal(error);
      const bool within = testing::HighReal(error) <= testing::HighReal(tol) * nearest;
      ASSERT_TRUE(within) << std::hexfloat << value << " error " << error << " tolerance " << tol;
    }
  }
  // Errors straddle the threshold: both answers must occur.
  EXPECT_GT(accepted, 1000);
  EXPECT_GT(refused, 1000);
}

}  // namespace
}  // namespace pecheck::reference
