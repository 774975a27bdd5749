// The oracle's one rounding step, from an MPFR value to a format, against
// the hardware's float64 -> float32 conversion and against the independent
// floor-based rounding, with the IEEE edge cases spelled out.
#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>

#include "../src/format_rounding.hpp"
#include "independent_oracle.hpp"

namespace pecheck::reference {
namespace {

using testing::HighReal;

double round_high(const HighReal& x, const Format& format) {
  RoundingScratch scratch;
  return round_to_format(x.backend().data(), format, scratch);
}

// Bit-for-bit equality, so that -0 differs from +0.
bool same_bits(double a, double b) {
  return std::bit_cast<std::uint64_t>(a) == std::bit_cast<std::uint64_t>(b) || (std::isnan(a) && std::isnan(b));
}

// Doubles from bit patterns: all exponents (float32's subnormal and overflow
// ranges included), both signs, and the low bits that decide ties.
rc::Gen<double> any_finite_double() {
  return rc::gen::map(rc::gen::arbitrary<std::uint64_t>(), [](std::uint64_t bits) {
    double x = std::bit_cast<double>(bits);
    return std::isfinite(x) ? x : 1.0;
  });
}

rc::Gen<double> double_near_float32_range() {
  return rc::gen::map(rc::gen::tuple(rc::gen::inRange(-160, 140), rc::gen::arbitrary<std::uint64_t>(),
                                     rc::gen::arbitrary<bool>(), rc::gen::inRange(0, 4)),
                      [](const std::tuple<int, std::uint64_t, bool, int>& t) {
                        const auto [exponent, mantissa_bits, negative, tie_shape] = t;
                        // tie_shape 0 makes the bits below float32's significand an exact half.
                        std::uint64_t mantissa = mantissa_bits & ((std::uint64_t{1} << 52) - 1);
                        if (tie_shape == 0) mantissa = (mantissa & ~((std::uint64_t{1} << 29) - 1)) | (std::uint64_t{1} << 28);
                        const double x = std::ldexp(1.0 + std::ldexp(static_cast<double>(mantissa), -52), exponent);
                        return negative ? -x : x;
                      });
}

TEST(FormatRounding, specialValuesKeepTheirKindAndSign) {
  testing::use_decimal_digits(60);
  for (const Format* format : testing::all_formats) {
    EXPECT_TRUE(same_bits(round_high(HighReal(0.0), *format), 0.0));
    EXPECT_TRUE(same_bits(round_high(HighReal(-0.0), *format), -0.0));
    EXPECT_TRUE(std::isnan(round_high(HighReal(std::numeric_limits<double>::quiet_NaN()), *format)));
    EXPECT_EQ(round_high(HighReal(std::numeric_limits<double>::infinity()), *format),
              std::numeric_limits<double>::infinity());
    EXPECT_EQ(round_high(-HighReal(std::numeric_limits<double>::infinity()), *format),
              -std::numeric_limits<double>::infinity());
  }
}

RC_GTEST_PROP(FormatRounding, float32RoundingMatchesTheHardwareConversion, ()) {
  testing::use_decimal_digits(60);
  const double x = *rc::gen::oneOf(any_finite_double(), double_near_float32_range()).as("x");
  // double -> float in C++ is IEEE round to nearest even with subnormals and
  // overflow to infinity, under the default floating-point environment.
  const double expected = static_cast<double>(static_cast<float>(x));
  RC_ASSERT(same_bits(round_high(HighReal(x), format_of(FormatId::float32)), expected));
}

RC_GTEST_PROP(FormatRounding, everyFormatMatchesTheIndependentRounding, ()) {
  testing::use_decimal_digits(60);  // ~200 bits: values finer than any double
  const auto format_index = *rc::gen::inRange<std::size_t>(0, 4).as("format");
  const Format& format = *testing::all_formats[format_index];
  const int binade = *rc::gen::inRange(format.min_exponent - format.precision - 3, format.max_exponent + 2).as("binade");
  // A significand of up to 150 bits, or an exact midpoint of the format.
  const auto high = *rc::gen::arbitrary<std::uint64_t>();
  const auto low = *rc::gen::arbitrary<std::uint64_t>();
  const bool midpoint = *rc::gen::arbitrary<bool>();
  HighReal magnitude = ldexp(1 + ldexp(HighReal(high), -64) + ldexp(HighReal(low), -128), binade);
  if (midpoint) {
    // Halfway between two neighbours at this binade's quantum (subnormal or not).
    const int q = testing::quantum_exponent(binade, format);
    magnitude = ldexp(floor(ldexp(magnitude, -q)) + HighReal(0.5), q);
  }
  const HighReal x = *rc::gen::arbitrary<bool>() ? HighReal(-magnitude) : magnitude;
  RC_ASSERT(same_bits(round_high(x, format_of(format.id)), testing::round_independently(x, format)));
}

// The IEEE rules at the edges, with each expected value derived from the
// format's parameters (float16: precision 11, exponents -14..15).
TEST(FormatRounding, float16EdgesFollowIeee) {
  testing::use_decimal_digits(60);
  const Format& f16 = format_of(FormatId::float16);
  const double largest = std::ldexp(2.0 - std::ldexp(1.0, -10), 15);  // 65504
  const double half_ulp_at_top = std::ldexp(1.0, 15 - 11);            // 16
  const double smallest = std::ldexp(1.0, -24);
  // Just below the midpoint between the largest value and 2^16 stays finite;
  // the midpoint itself is a tie whose even side is 2^16, which overflows.
  EXPECT_EQ(round_high(HighReal(largest) + half_ulp_at_top - ldexp(HighReal(1), -60), f16), largest);
  EXPECT_EQ(round_high(HighReal(largest) + half_ulp_at_top, f16), std::numeric_limits<double>::infinity());
  EXPECT_EQ(round_high(-(HighReal(largest) + half_ulp_at_top), f16), -std::numeric_limits<double>::infinity());
  // Half the smallest subnormal ties to 0 (even); a hair above goes to the subnormal.
  EXPECT_TRUE(same_bits(round_high(HighReal(smallest / 2), f16), 0.0));
  EXPECT_TRUE(same_bits(round_high(-HighReal(smallest / 2), f16), -0.0));
  EXPECT_EQ(round_high(HighReal(smallest / 2) * (1 + ldexp(HighReal(1), -100)), f16), smallest);
  EXPECT_EQ(round_high(-HighReal(smallest / 2) * (1 + ldexp(HighReal(1), -100)), f16), -smallest);
  EXPECT_TRUE(same_bits(round_high(HighReal(smallest / 4), f16), 0.0));
  // 1.5 times the smallest subnormal ties to 2 times (even).
  EXPECT_EQ(round_high(HighReal(1.5 * smallest), f16), 2 * smallest);
  // Subnormal spacing holds up to the smallest normal 2^-14.
  EXPECT_EQ(round_high(HighReal(std::ldexp(1.0, -14) - smallest / 4), f16), std::ldexp(1.0, -14));
}

TEST(FormatRounding, bfloat16TiesGoToTheEvenSignificand) {
  testing::use_decimal_digits(60);
  const Format& bf16 = format_of(FormatId::bfloat16);
  const double ulp_at_one = std::ldexp(1.0, -7);
  EXPECT_EQ(round_high(HighReal(1 + ulp_at_one / 2), bf16), 1.0);  // 1 is even
  EXPECT_EQ(round_high(HighReal(1 + 3 * ulp_at_one / 2), bf16), 1 + 2 * ulp_at_one);
  EXPECT_EQ(round_high(HighReal(1 + ulp_at_one / 2) + ldexp(HighReal(1), -200), bf16), 1 + ulp_at_one);
}

}  // namespace
}  // namespace pecheck::reference
