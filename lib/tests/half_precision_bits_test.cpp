// Rounding a double once to float16 / bfloat16 bits: binade edges, ties,
// subnormals, overflow, signed zeros and NaN. Expected bit patterns follow
// from the IEEE 754 binary16 layout and bfloat16 (the top half of binary32).
#include "half_precision_bits.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>

namespace pecheck::detail {
namespace {

TEST(Float16Bits, roundsToNearestEvenAtBinadeEdgesAndTies) {
  EXPECT_EQ(float16_bits_from_double(1.0), 0x3c00);
  EXPECT_EQ(float16_bits_from_double(-2.0), 0xc000);
  EXPECT_EQ(float16_bits_from_double(1.0 + 0x1p-11), 0x3c00);          // tie, to even
  EXPECT_EQ(float16_bits_from_double(1.0 + 3 * 0x1p-11), 0x3c02);      // tie, to even (up)
  EXPECT_EQ(float16_bits_from_double(1.0 + 0x1p-11 + 0x1p-40), 0x3c01);  // just past the tie
  EXPECT_EQ(float16_bits_from_double(2.0 - 0x1p-12), 0x4000);          // rounds up into the next binade
  EXPECT_EQ(float16_bits_from_double(65504.0), 0x7bff);
  EXPECT_EQ(float16_bits_from_double(65519.99), 0x7bff);
  EXPECT_EQ(float16_bits_from_double(65520.0), 0x7c00);  // the tie above the largest finite goes to infinity
  EXPECT_EQ(float16_bits_from_double(-INFINITY), 0xfc00);
}

TEST(Float16Bits, keepsSubnormalsSignedZerosAndNan) {
  EXPECT_EQ(float16_bits_from_double(0x1p-24), 0x0001);
  EXPECT_EQ(float16_bits_from_double(0x1p-25), 0x0000);        // tie with zero, to even
  EXPECT_EQ(float16_bits_from_double(-0x1p-25), 0x8000);       // keeps its sign
  EXPECT_EQ(float16_bits_from_double(3 * 0x1p-26), 0x0001);    // above the tie
  EXPECT_EQ(float16_bits_from_double(0x1p-14 - 0x1p-26), 0x0400);  // up to the smallest normal
  EXPECT_EQ(float16_bits_from_double(0.0), 0x0000);
  EXPECT_EQ(float16_bits_from_double(-0.0), 0x8000);
  const std::uint16_t nan = float16_bits_from_double(NAN);
  EXPECT_EQ(nan & 0x7c00, 0x7c00);
  EXPECT_NE(nan & 0x03ff, 0);
}

TEST(BFloat16Bits, roundsOnceFromDoubleNotViaFloat) {
  EXPECT_EQ(bfloat16_bits_from_double(1.0), 0x3f80);
  EXPECT_EQ(bfloat16_bits_from_double(1.0 + 0x1p-8), 0x3f80);              // tie, to even
  EXPECT_EQ(bfloat16_bits_from_double(1.0 + 3 * 0x1p-8), 0x3f82);          // tie, to even (up)
  // Just above a tie by less than a float32 ulp: rounding via float32 would
  // first land on the tie and then round down to even.
  EXPECT_EQ(bfloat16_bits_from_double(1.0 + 0x1p-8 + 0x1p-30), 0x3f81);
  EXPECT_EQ(bfloat16_bits_from_double(0x1p-133), 0x0001);  // smallest subnormal
  EXPECT_EQ(bfloat16_bits_from_double(-0.0), 0x8000);
  EXPECT_EQ(bfloat16_bits_from_double(0x1.fep127), 0x7f7f);  // largest finite, (2 - 2^-7) 2^127
  EXPECT_EQ(bfloat16_bits_from_double(0x1.fefp127), 0x7f7f);
  EXPECT_EQ(bfloat16_bits_from_double(0x1.ffp127), 0x7f80);  // its tie with 2^128: infinity
}

TEST(HalfPrecisionBits, everyFiniteFloat16AndBFloat16RoundTrips) {
  for (std::uint32_t bits = 0; bits < 0x10000; ++bits) {
    const auto b = static_cast<std::uint16_t>(bits);
    const double h = float16_bits_to_value(b);
    if (!std::isnan(h)) {
      EXPECT_EQ(float16_bits_from_double(h), b) << std::hex << bits;
    }
    const double g = bfloat16_bits_to_value(b);
    if (!std::isnan(g)) {
      EXPECT_EQ(bfloat16_bits_from_double(g), b) << std::hex << bits;
    }
  }
  EXPECT_EQ(float16_bits_to_value(0x3555), 0x1.554p-2);
  EXPECT_EQ(bfloat16_bits_to_value(0x4049), 0x1.92p+1);
}

}  // namespace
}  // namespace pecheck::detail
