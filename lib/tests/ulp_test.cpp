// The ULP metric, tested at binade edges before anything relies on it.
//
// The expected spacings come from the formats' own bit patterns (the gap to
// the next pattern), not from the formula ulp_of implements.
#include "pecheck/ulp.hpp"

#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <set>
#include <string>

#include "edge_doubles.hpp"

namespace pecheck {
namespace {

constexpr std::array<FormatId, 4> all_formats = {FormatId::float64, FormatId::float32, FormatId::float16,
                                                  FormatId::bfloat16};
constexpr double infinity = std::numeric_limits<double>::infinity();
constexpr double nan = std::numeric_limits<double>::quiet_NaN();

// The gap from a positive format value to the next pattern up, and down.
double spacing_above(double x, const Format& format) { return from_bits(to_bits(x, format) + 1, format) - x; }
double spacing_below(double x, const Format& format) { return x - from_bits(to_bits(x, format) - 1, format); }

DoubleDouble exactly(double x) { return {x, 0.0}; }

// Powers of two to probe: the smallest normal, the binades around 1, the largest.
std::vector<int> probe_exponents(const Format& format) {
  return {format.min_exponent, format.min_exponent + 1, -1, 0, 1, format.max_exponent};
}

// A perturbation far below any format's spacing at 2^k, yet small enough that
// spacing +- tiny is exact in double (p + 41 bits), and never below double's range.
double tiny_at(int k, const Format& format) {
  return std::max(std::ldexp(1.0, k - format.precision - 40), std::numeric_limits<double>::denorm_min());
}

TEST(UlpOf, isTheSpacingAboveAPowerOfTwoAndAtOrJustAboveIt) {
  for (const FormatId id : all_formats) {
    const Format& format = format_of(id);
    for (const int k : probe_exponents(format)) {
      SCOPED_TRACE(std::string(format.name) + " 2^" + std::to_string(k));
      const double power = std::ldexp(1.0, k);
      EXPECT_EQ(ulp_of(exactly(power), format), spacing_above(power, format));
      EXPECT_EQ(ulp_of({power, tiny_at(k, format)}, format), spacing_above(power, format));
      EXPECT_EQ(ulp_of(exactly(-power), format), spacing_above(power, format));
    }
  }
}

// hi = 2^k with lo of the opposite sign is an exact value in the binade below
// hi's own: its ulp is the spacing below 2^k, half the spacing above (except
// at the smallest normal, where the subnormal spacing is the same).
TEST(UlpOf, justBelowAPowerOfTwoIsTheSpacingOfTheBinadeBelow) {
  for (const FormatId id : all_formats) {
    const Format& format = format_of(id);
    for (const int k : probe_exponents(format)) {
      SCOPED_TRACE(std::string(format.name) + " 2^" + std::to_string(k));
      const double power = std::ldexp(1.0, k);
      const double tiny = tiny_at(k, format);
      EXPECT_EQ(ulp_of({power, -tiny}, format), spacing_below(power, format));
      EXPECT_EQ(ulp_of({-power, tiny}, format), spacing_below(power, format));
      const double ratio = k == format.min_exponent ? 1.0 : 0.5;
      EXPECT_EQ(ulp_of({power, -tiny}, format), ratio * ulp_of(exactly(power), format));
    }
  }
}

TEST(UlpOf, isFlooredAtTheSmallestSubnormal) {
  for (const FormatId id : all_formats) {
    const Format& format = format_of(id);
    SCOPED_TRACE(std::string(format.name));
    const double smallest = smallest_subnormal(format);
    EXPECT_EQ(ulp_of(exactly(0.0), format), smallest);
    EXPECT_EQ(ulp_of(exactly(-0.0), format), smallest);
    EXPECT_EQ(ulp_of(exactly(smallest), format), smallest);
    EXPECT_EQ(ulp_of(exactly(3 * smallest), format), smallest);
    EXPECT_EQ(ulp_of(exactly(smallest_normal(format) - smallest), format), smallest);
    EXPECT_EQ(ulp_of(exactly(smallest_normal(format)), format), smallest);
    if (id != FormatId::float64) {  // below the format's range, still inside double's
      EXPECT_EQ(ulp_of(exactly(smallest / 1024), format), smallest);
    }
  }
}

TEST(UlpOf, atTheLargestFiniteIsTheTopSpacing) {
  for (const FormatId id : all_formats) {
    const Format& format = format_of(id);
    SCOPED_TRACE(std::string(format.name));
    EXPECT_EQ(ulp_of(exactly(largest_finite(format)), format), spacing_below(largest_finite(format), format));
  }
}

// For any double x between two neighbouring format values, the ulp is their gap.
RC_GTEST_PROP(UlpOf, isTheGapBetweenTheFormatValuesAroundTheExactValue, ()) {
  const Format& format = format_of(*rc::gen::elementOf(all_formats));
  const double x = std::fabs(*test_support::gen_double_near(format));
  RC_PRE(std::isfinite(x) && x < largest_finite(format));
  double below = round_to_format(x, format);
  if (below > x) below = from_bits(to_bits(below, format) - 1, format);
  RC_ASSERT(ulp_of(exactly(x), format) == spacing_above(below, format));
}

// The headline asymmetry: measured against an exact 2^k, the neighbour below
// is half an ulp away and the neighbour above a whole one; against an exact
// value just below 2^k the same neighbours are one and two ulps away.
TEST(UlpError, countsInTheBinadeOfTheExactValueAtPowersOfTwo) {
  for (const FormatId id : all_formats) {
    const Format& format = format_of(id);
    for (const int k : probe_exponents(format)) {
      SCOPED_TRACE(std::string(format.name) + " 2^" + std::to_string(k));
      const double power = std::ldexp(1.0, k);
      const double up = spacing_above(power, format);
      const double down = spacing_below(power, format);
      const double tiny = tiny_at(k, format);
      const double neighbour_above = power + up;
      const double neighbour_below = power - down;

      EXPECT_EQ(ulp_error(neighbour_above, exactly(power), format).ulps, 1.0);
      EXPECT_EQ(ulp_error(neighbour_above, {power, -tiny}, format).ulps, (up + tiny) / down);
      EXPECT_EQ(ulp_error(power, {power, tiny}, format).ulps, tiny / up);
      EXPECT_EQ(ulp_error(neighbour_below, exactly(power), format).ulps, down / up);
      if (k > format.min_exponent) {
        EXPECT_EQ(down / up, 0.5);
      }
      EXPECT_EQ(ulp_error(neighbour_below, {power, -tiny}, format).ulps, (down - tiny) / down);
      EXPECT_EQ(ulp_error(power, {power, -tiny}, format).ulps, tiny / down);
    }
  }
}

TEST(UlpError, signedZerosAreATypedMismatchWithNoUlps) {
  for (const FormatId id : all_formats) {
    const Format& format = format_of(id);
    SCOPED_TRACE(std::string(format.name));
    const UlpError plus_plus = ulp_error(0.0, exactly(0.0), format);
    EXPECT_EQ(plus_plus.mismatch, Mismatch::none);
    EXPECT_EQ(plus_plus.ulps, 0.0);
    EXPECT_EQ(ulp_error(-0.0, exactly(-0.0), format).mismatch, Mismatch::none);
    for (const auto& [computed, exact] : {std::pair{0.0, -0.0}, std::pair{-0.0, 0.0}}) {
      const UlpError error = ulp_error(computed, exactly(exact), format);
      EXPECT_EQ(error.mismatch, Mismatch::signed_zero);
      EXPECT_EQ(error.ulps, 0.0);
    }
    // A zero against a nonzero value (or the reverse) is an ordinary error.
    const double smallest = smallest_subnormal(format);
    EXPECT_EQ(ulp_error(smallest, exactly(0.0), format).ulps, 1.0);
    if (id != FormatId::float64) {  // smallest / 4 is not a double
      EXPECT_EQ(ulp_error(-0.0, exactly(smallest / 4), format).ulps, 0.25);
      EXPECT_EQ(ulp_error(-0.0, exactly(smallest / 4), format).mismatch, Mismatch::none);
    }
  }
}

TEST(UlpError, subnormalsCountInSmallestSubnormals) {
  for (const FormatId id : all_formats) {
    const Format& format = format_of(id);
    SCOPED_TRACE(std::string(format.name));
    const double smallest = smallest_subnormal(format);
    if (id != FormatId::float64) {  // 3.25 * smallest is not a double
      EXPECT_EQ(ulp_error(3 * smallest, exactly(3.25 * smallest), format).ulps, 0.25);
      EXPECT_EQ(ulp_error(4 * smallest, exactly(3.25 * smallest), format).ulps, 0.75);
    }
    EXPECT_EQ(ulp_error(3 * smallest, exactly(5 * smallest), format).ulps, 2.0);
    // No asymmetry at the smallest normal: both neighbours are one ulp away.
    const double normal = smallest_normal(format);
    EXPECT_EQ(ulp_error(normal - smallest, exactly(normal), format).ulps, 1.0);
    EXPECT_EQ(ulp_error(normal + smallest, exactly(normal), format).ulps, 1.0);
  }
}

TEST(UlpError, nearTheLargestFiniteAndBeyond) {
  for (const FormatId id : all_formats) {
    const Format& format = format_of(id);
    SCOPED_TRACE(std::string(format.name));
    const double largest = largest_finite(format);
    const double top = spacing_below(largest, format);
    EXPECT_EQ(ulp_error(largest - top, exactly(largest), format).ulps, 1.0);
    // The overflow threshold, as a double-double so that it exists for float64 too.
    const DoubleDouble threshold{largest, top / 2};
    EXPECT_EQ(ulp_error(largest, threshold, format).ulps, 0.5);
    const UlpError overflowed = ulp_error(infinity, threshold, format);
    EXPECT_EQ(overflowed.mismatch, Mismatch::infinity);
  }
}

TEST(UlpError, infinitiesAreATypedMismatch) {
  const Format& format = format_of(FormatId::float32);
  EXPECT_EQ(ulp_error(infinity, exactly(1.0), format).mismatch, Mismatch::infinity);
  EXPECT_EQ(ulp_error(1.0, exactly(-infinity), format).mismatch, Mismatch::infinity);
  EXPECT_EQ(ulp_error(-infinity, exactly(infinity), format).mismatch, Mismatch::infinity);
  EXPECT_EQ(ulp_error(infinity, exactly(-infinity), format).mismatch, Mismatch::infinity);
  const UlpError same = ulp_error(-infinity, exactly(-infinity), format);
  EXPECT_EQ(same.mismatch, Mismatch::none);
  EXPECT_EQ(same.ulps, 0.0);
  // A mismatch never reads as a small error to code that only takes the max.
  EXPECT_EQ(ulp_error(infinity, exactly(1.0), format).ulps, infinity);
}

TEST(UlpError, nanOnExactlyOneSideIsATypedMismatch) {
  const Format& format = format_of(FormatId::float16);
  EXPECT_EQ(ulp_error(nan, exactly(1.0), format).mismatch, Mismatch::nan);
  EXPECT_EQ(ulp_error(1.0, exactly(nan), format).mismatch, Mismatch::nan);
  EXPECT_EQ(ulp_error(nan, exactly(infinity), format).mismatch, Mismatch::nan);
  EXPECT_EQ(ulp_error(infinity, exactly(nan), format).mismatch, Mismatch::nan);
  EXPECT_EQ(ulp_error(nan, exactly(1.0), format).ulps, infinity);
  const UlpError both = ulp_error(nan, exactly(-nan), format);
  EXPECT_EQ(both.mismatch, Mismatch::none);
  EXPECT_EQ(both.ulps, 0.0);
}

// In float64 the error is a fraction of an ulp that only lo can carry.
TEST(UlpError, theLowPartOfTheExactValueCounts) {
  const Format& format = format_of(FormatId::float64);
  const double above_one = std::ldexp(1.0, -52);  // spacing of double above 1
  const double below_one = std::ldexp(1.0, -53);  // and below
  const double lo = std::ldexp(1.0, -60);
  EXPECT_EQ(ulp_error(1.0, {1.0, lo}, format).ulps, lo / above_one);
  EXPECT_EQ(ulp_error(1.0 + above_one, {1.0, lo}, format).ulps, 1.0 - lo / above_one);
  // Just below 1: the ulp halves, so the same distances count twice.
  EXPECT_EQ(ulp_error(1.0, {1.0, -lo}, format).ulps, lo / below_one);
  EXPECT_EQ(ulp_error(1.0 - below_one, {1.0, -lo}, format).ulps, 1.0 - lo / below_one);
  EXPECT_EQ(ulp_error(1.0 + above_one, {1.0, -lo}, format).ulps, 2.0 + lo / below_one);
}

// Correct rounding and the metric agree: the rounded value is within half an
// ulp of the exact one, and neither neighbouring format value is closer.
RC_GTEST_PROP(UlpError, aCorrectlyRoundedValueIsWithinHalfAnUlpAndItsNeighboursAreNot, ()) {
  const Format& format = format_of(*rc::gen::element(FormatId::float32, FormatId::float16, FormatId::bfloat16));
  const double x = std::fabs(*test_support::gen_double_near(format));
  const double rounded = round_to_format(x, format);
  RC_PRE(std::isfinite(rounded));
  RC_LOG() << format.name << ' ' << hex_float(x) << '\n';
  const UlpError error = ulp_error(rounded, exactly(x), format);
  RC_ASSERT(error.mismatch == Mismatch::none);
  RC_ASSERT(error.ulps <= 0.5);
  const std::uint64_t bits = to_bits(rounded, format);
  const double below = bits == 0 ? -smallest_subnormal(format) : from_bits(bits - 1, format);
  RC_ASSERT(ulp_error(below, exactly(x), format).ulps >= 0.5);
  if (rounded < largest_finite(format)) RC_ASSERT(ulp_error(from_bits(bits + 1, format), exactly(x), format).ulps >= 0.5);
}

RC_GTEST_PROP(UlpError, isSymmetricUnderNegation, ()) {
  const Format& format = format_of(*rc::gen::elementOf(all_formats));
  const double exact = *test_support::gen_double_near(format);
  const double computed = round_to_format(*test_support::gen_double_near(format), format);
  const UlpError error = ulp_error(computed, exactly(exact), format);
  const UlpError mirrored = ulp_error(-computed, exactly(-exact), format);
  RC_ASSERT(error.mismatch == mirrored.mismatch);
  RC_ASSERT(error.ulps == mirrored.ulps || (std::isnan(error.ulps) && std::isnan(mirrored.ulps)));
}

TEST(AbsoluteError, isTheDistanceToHiPlusLo) {
  const double lo = std::ldexp(1.0, -60);
  EXPECT_EQ(absolute_error(1.0 + std::ldexp(1.0, -52), {1.0, lo}), std::ldexp(1.0, -52) - lo);
  EXPECT_EQ(absolute_error(0.5, {1.0, -lo}), 0.5 - lo);
  EXPECT_EQ(absolute_error(-0.0, exactly(0.0)), 0.0);
}

TEST(AbsoluteError, isInfiniteWhenEitherSideIsNotFinite) {
  EXPECT_EQ(absolute_error(infinity, exactly(1.0)), infinity);
  EXPECT_EQ(absolute_error(1.0, exactly(-infinity)), infinity);
  EXPECT_EQ(absolute_error(nan, exactly(1.0)), infinity);
  EXPECT_EQ(absolute_error(infinity, exactly(infinity)), infinity);
}

TEST(Mismatch, namesAreDistinctAndReadable) {
  std::set<std::string> names;
  for (const Mismatch m : {Mismatch::none, Mismatch::signed_zero, Mismatch::nan, Mismatch::infinity}) {
    names.insert(std::string(to_string(m)));
  }
  EXPECT_EQ(names, (std::set<std::string>{"none", "signed_zero", "nan", "infinity"}));
}

}  // namespace
}  // namespace pecheck
