// The formats as data, and the exact conversions between values and bit
// patterns: checked against the compiler's own float, _Float16 and double,
// and exhaustively for the two 16-bit formats.
#include "pecheck/format.hpp"

#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <array>
#include <bit>
#include <cfloat>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <iomanip>
#include <limits>
#include <sstream>
#include <stdexcept>
#include <string>

#include "edge_doubles.hpp"

namespace pecheck {
namespace {

constexpr std::array<FormatId, 4> all_formats = {FormatId::float64, FormatId::float32, FormatId::float16,
                                                  FormatId::bfloat16};

std::uint64_t bits_of(double x) { return std::bit_cast<std::uint64_t>(x); }

double widen_float16(std::uint16_t bits) { return static_cast<double>(std::bit_cast<_Float16>(bits)); }
// A bfloat16 pattern is the top half of the float32 with the same value.
double widen_bfloat16(std::uint16_t bits) {
  return static_cast<double>(std::bit_cast<float>(static_cast<std::uint32_t>(bits) << 16));
}

std::string hex(std::uint64_t bits) {
  std::ostringstream out;
  out << "0x" << std::hex << bits;
  return out.str();
}

TEST(FormatData, fieldsFollowTheIeeeLayout) {
  for (const FormatId id : all_formats) {
    const Format& format = format_of(id);
    SCOPED_TRACE(std::string(format.name));
    EXPECT_EQ(format.id, id);
    const int exponent_bits = format.storage_bits - format.precision;
    EXPECT_EQ(format.max_exponent, (1 << (exponent_bits - 1)) - 1);
    EXPECT_EQ(format.min_exponent, 1 - format.max_exponent);
  }
}

// C's *_MIN_EXP / *_MAX_EXP count the significand in [0.5, 1), one more than IEEE's emin / emax.
TEST(FormatData, limitsMatchTheCompilersTypes) {
  const Format& f64 = format_of(FormatId::float64);
  EXPECT_EQ(f64.precision, DBL_MANT_DIG);
  EXPECT_EQ(f64.min_exponent, DBL_MIN_EXP - 1);
  EXPECT_EQ(f64.max_exponent, DBL_MAX_EXP - 1);
  EXPECT_EQ(largest_finite(f64), DBL_MAX);
  EXPECT_EQ(smallest_normal(f64), DBL_MIN);
  EXPECT_EQ(smallest_subnormal(f64), DBL_TRUE_MIN);

  const Format& f32 = format_of(FormatId::float32);
  EXPECT_EQ(f32.precision, FLT_MANT_DIG);
  EXPECT_EQ(f32.min_exponent, FLT_MIN_EXP - 1);
  EXPECT_EQ(f32.max_exponent, FLT_MAX_EXP - 1);
  EXPECT_EQ(largest_finite(f32), FLT_MAX);
  EXPECT_EQ(smallest_normal(f32), FLT_MIN);
  EXPECT_EQ(smallest_subnormal(f32), FLT_TRUE_MIN);

  const Format& f16 = format_of(FormatId::float16);
  EXPECT_EQ(f16.precision, __FLT16_MANT_DIG__);
  EXPECT_EQ(f16.min_exponent, __FLT16_MIN_EXP__ - 1);
  EXPECT_EQ(f16.max_exponent, __FLT16_MAX_EXP__ - 1);
  // IEEE binary16 patterns (largest finite, smallest normal, smallest subnormal) as the compiler decodes them.
  EXPECT_EQ(largest_finite(f16), widen_float16(0x7bff));
  EXPECT_EQ(smallest_normal(f16), widen_float16(0x0400));
  EXPECT_EQ(smallest_subnormal(f16), widen_float16(0x0001));

  // bfloat16 is float32 with the low 16 fraction bits cut off.
  const Format& bf16 = format_of(FormatId::bfloat16);
  EXPECT_EQ(bf16.precision, FLT_MANT_DIG - 16);
  EXPECT_EQ(bf16.min_exponent, f32.min_exponent);
  EXPECT_EQ(bf16.max_exponent, f32.max_exponent);
  EXPECT_EQ(largest_finite(bf16), widen_bfloat16(0x7f7f));
  EXPECT_EQ(smallest_normal(bf16), widen_bfloat16(0x0080));
  EXPECT_EQ(smallest_subnormal(bf16), widen_bfloat16(0x0001));
}

TEST(FormatData, everyNameParsesBackToItsFormat) {
  for (const FormatId id : all_formats) EXPECT_EQ(parse_format(format_of(id).name), id);
  for (const char* unknown : {"", "float8", "Float32", "fp16", "float32 ", "bf16"}) {
    EXPECT_FALSE(parse_format(unknown).has_value()) << unknown;
  }
}

// Every 16-bit pattern: decode, encode back, and agree with the hardware's
// widening (_Float16 -> double, float -> double) and with the hot path.
TEST(FormatBits, everySixteenBitPatternRoundTrips) {
  struct Case {
    FormatId id;
    double (*hardware)(std::uint16_t);
    double (*hot_decode)(std::uint16_t);
    std::uint16_t (*hot_encode)(double);
  };
  for (const Case& c : {Case{FormatId::float16, widen_float16, float16_bits_to_double, round_to_float16_bits},
                        Case{FormatId::bfloat16, widen_bfloat16, bfloat16_bits_to_double, round_to_bfloat16_bits}}) {
    const Format& format = format_of(c.id);
    SCOPED_TRACE(std::string(format.name));
    const std::uint16_t quiet_bit = static_cast<std::uint16_t>(1u << (format.precision - 2));
    for (std::uint32_t pattern = 0; pattern <= 0xffff; ++pattern) {
      const auto bits = static_cast<std::uint16_t>(pattern);
      const double value = from_bits(bits, format);
      ASSERT_EQ(to_bits(value, format), bits) << hex(bits);
      ASSERT_EQ(bits_of(c.hot_decode(bits)), bits_of(value)) << hex(bits);
      const double hardware = c.hardware(bits);
      if (std::isnan(value)) {
        ASSERT_TRUE(std::isnan(hardware)) << hex(bits);
        ASSERT_EQ(std::signbit(hardware), std::signbit(value)) << hex(bits);
        // The hot path rounds a NaN to a quiet NaN with the same payload.
        ASSERT_EQ(c.hot_encode(value), bits | quiet_bit) << hex(bits);
      } else {
        ASSERT_EQ(bits_of(value), bits_of(hardware)) << hex(bits);
        ASSERT_EQ(c.hot_encode(value), bits) << hex(bits);
      }
    }
  }
}

RC_GTEST_PROP(FormatBits, float32PatternsAreTheHardwarePatterns, ()) {
  const Format& format = format_of(FormatId::float32);
  const double x = round_to_format(*test_support::gen_double_near(format), format);
  RC_PRE(!std::isnan(x));  // NaN payload conversion is not a hardware contract worth pinning
  RC_LOG() << hex_float(x) << '\n';
  const auto hardware = std::bit_cast<std::uint32_t>(static_cast<float>(x));
  RC_ASSERT(to_bits(x, format) == hardware);
  RC_ASSERT(bits_of(from_bits(hardware, format)) == bits_of(x));
}

RC_GTEST_PROP(FormatBits, float64PatternsAreTheDoublesOwnNaNsIncluded, ()) {
  const Format& format = format_of(FormatId::float64);
  const double x = *test_support::gen_double_near(format);
  RC_LOG() << hex(bits_of(x)) << '\n';
  RC_ASSERT(to_bits(x, format) == bits_of(x));
  RC_ASSERT(bits_of(from_bits(bits_of(x), format)) == bits_of(x));
}

RC_GTEST_PROP(FormatBits, theDoubleNextToAFormatValueIsNotRepresentable, ()) {
  const Format& format = format_of(*rc::gen::element(FormatId::float32, FormatId::float16, FormatId::bfloat16));
  const double x = round_to_format(*test_support::gen_double_near(format), format);
  RC_PRE(std::isfinite(x));
  RC_ASSERT(is_representable(x, format));
  RC_ASSERT(!is_representable(std::nextafter(x, std::numeric_limits<double>::infinity()), format));
  RC_ASSERT(!is_representable(std::nextafter(x, -std::numeric_limits<double>::infinity()), format));
}

TEST(FormatBits, toBitsRejectsAValueTheFormatCannotHold) {
  try {
    to_bits(0.1, format_of(FormatId::float32));
    FAIL() << "0.1 is not a float32 value";
  } catch (const std::invalid_argument& error) {
    EXPECT_NE(std::string(error.what()).find("float32"), std::string::npos) << error.what();
  }
  EXPECT_THROW(to_bits(1.0 + 0x1p-11, format_of(FormatId::float16)), std::invalid_argument);
  EXPECT_THROW(to_bits(0x1p-25, format_of(FormatId::float16)), std::invalid_argument);  // half the smallest subnormal
  EXPECT_THROW(to_bits(0x1p16, format_of(FormatId::float16)), std::invalid_argument);   // beyond the largest finite
}

TEST(FormatBits, fromBitsRejectsBitsBeyondTheStorageWidth) {
  EXPECT_THROW(from_bits(0x10000, format_of(FormatId::float16)), std::invalid_argument);
  EXPECT_THROW(from_bits(std::uint64_t{1} << 32, format_of(FormatId::float32)), std::invalid_argument);
  EXPECT_NO_THROW(from_bits(~std::uint64_t{0}, format_of(FormatId::float64)));
}

TEST(HexText, matchesTheDocumentedExamples) {
  EXPECT_EQ(hex_bits(1.0, format_of(FormatId::float32)), "0x3f800000");
  EXPECT_EQ(hex_bits(-0.0, format_of(FormatId::float16)), "0x8000");
  EXPECT_EQ(hex_bits(0x1p-24, format_of(FormatId::float16)), "0x0001");
  EXPECT_EQ(hex_float(0.1875), "0x1.8p-3");
}

RC_GTEST_PROP(HexText, hexBitsIsTheZeroPaddedPattern, ()) {
  const Format& format = format_of(*rc::gen::elementOf(all_formats));
  const double x = round_to_format(*test_support::gen_double_near(format), format);
  const std::string text = hex_bits(x, format);
  RC_ASSERT(text.size() == 2 + static_cast<std::size_t>(format.storage_bits / 4));
  RC_ASSERT(text.substr(0, 2) == "0x");
  RC_ASSERT(std::strtoull(text.c_str() + 2, nullptr, 16) == to_bits(x, format));
}

RC_GTEST_PROP(HexText, hexFloatReadsBackToTheSameDouble, ()) {
  const double x = *test_support::gen_double_near(format_of(FormatId::float64));
  const std::string text = hex_float(x);
  const double back = std::strtod(text.c_str(), nullptr);
  if (std::isnan(x)) {
    RC_ASSERT(std::isnan(back));
  } else {
    RC_ASSERT(bits_of(back) == bits_of(x));
  }
}

}  // namespace
}  // namespace pecheck
