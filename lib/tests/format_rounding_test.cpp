// Rounding from double to each format: the generic round_to_format against
// the hardware (float32) and GCC's _Float16 conversion from double (one
// rounding, in libgcc), the hot-path bit conversions against the generic
// code, ties to even at every midpoint of the 16-bit formats, and the
// underflow and overflow thresholds.
#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>
#include <string>

#include "edge_doubles.hpp"
#include "pecheck/format.hpp"

namespace pecheck {
namespace {

constexpr double infinity = std::numeric_limits<double>::infinity();

std::uint64_t bits_of(double x) { return std::bit_cast<std::uint64_t>(x); }

// Equal as doubles bit for bit (so -0 differs from +0), any NaN equal to any NaN.
bool same(double a, double b) { return (std::isnan(a) && std::isnan(b)) || bits_of(a) == bits_of(b); }

double hardware_float32(double x) { return static_cast<double>(static_cast<float>(x)); }
double gcc_float16(double x) { return static_cast<double>(static_cast<_Float16>(x)); }

// The value above `format`'s largest finite at the same spacing, 2^(emax+1):
// the even neighbour a tie at the overflow threshold rounds to, i.e. infinity.
double beyond_largest(const Format& format) { return std::ldexp(1.0, format.max_exponent + 1); }

// Inputs per property case: 100 cases x 250 doubles, a few milliseconds to
// pass; small enough that shrinking a failing batch takes seconds, not minutes.
constexpr std::size_t batch = 250;

RC_GTEST_PROP(RoundToFormat, float32AgreesWithTheHardwareConversion, ()) {
  for (const double x : *test_support::gen_doubles_near(format_of(FormatId::float32), batch)) {
    RC_ASSERT(same(round_to_format(x, format_of(FormatId::float32)), hardware_float32(x)));
  }
}

RC_GTEST_PROP(RoundToFormat, float16AgreesWithGccsFloat16Conversion, ()) {
  for (const double x : *test_support::gen_doubles_near(format_of(FormatId::float16), batch)) {
    RC_ASSERT(same(round_to_format(x, format_of(FormatId::float16)), gcc_float16(x)));
  }
}

RC_GTEST_PROP(RoundToFormat, float64LeavesEveryDoubleAsItIs, ()) {
  const double x = *test_support::gen_double_near(format_of(FormatId::float64));
  RC_ASSERT(same(round_to_format(x, format_of(FormatId::float64)), x));
  RC_ASSERT(std::isnan(x) || is_representable(x, format_of(FormatId::float64)));
}

// The hot path must equal the generic code bit for bit: the fast
// implementation's float16/bfloat16 tables are judged by the generic metric.
void check_hot_path_agrees(double x, const Format& format, std::uint16_t (*hot_encode)(double),
                           double (*hot_decode)(std::uint16_t)) {
  const std::uint16_t hot = hot_encode(x);
  if (std::isnan(x)) {
    const std::uint64_t quiet_nan = to_bits(std::numeric_limits<double>::quiet_NaN(), format);
    RC_ASSERT((hot & quiet_nan) == quiet_nan);  // all exponent bits and the quiet bit
    RC_ASSERT(std::signbit(hot_decode(hot)) == std::signbit(x));
    // A quiet NaN keeps exactly what the generic encoding keeps.
    if ((bits_of(x) & (std::uint64_t{1} << 51)) != 0) RC_ASSERT(hot == to_bits(x, format));
    return;
  }
  const double generic = round_to_format(x, format);
  RC_ASSERT(hot == to_bits(generic, format));
  RC_ASSERT(bits_of(hot_decode(hot)) == bits_of(generic));
}

RC_GTEST_PROP(HotPath, float16BitsAgreeWithTheGenericRounding, ()) {
  const Format& format = format_of(FormatId::float16);
  for (const double x : *test_support::gen_doubles_near(format, batch)) {
    check_hot_path_agrees(x, format, round_to_float16_bits, float16_bits_to_double);
  }
}

RC_GTEST_PROP(HotPath, bfloat16BitsAgreeWithTheGenericRounding, ()) {
  const Format& format = format_of(FormatId::bfloat16);
  for (const double x : *test_support::gen_doubles_near(format, batch)) {
    check_hot_path_agrees(x, format, round_to_bfloat16_bits, bfloat16_bits_to_double);
  }
}

RC_GTEST_PROP(HotPath, float16BitsAgreeWithGccsFloat16Conversion, ()) {
  for (const double x : *test_support::gen_doubles_near(format_of(FormatId::float16), batch)) {
    // NaN payloads are not compared (both sides are quiet NaNs, checked above).
    if (std::isnan(x)) continue;
    RC_ASSERT(round_to_float16_bits(x) == std::bit_cast<std::uint16_t>(static_cast<_Float16>(x)));
  }
}

// Every midpoint between neighbouring positive values of a 16-bit format, and
// the doubles just below and above it, in both signs: a tie goes to the
// neighbour with the even pattern (to infinity past the largest finite),
// anything off the tie to the nearer neighbour.
struct RoundingUnderTest {
  const Format& format;
  std::uint16_t (*hot_encode)(double);
  double (*hardware)(double);  // nullptr when there is none
};

void check_every_midpoint(const RoundingUnderTest& subject) {
  const Format& format = subject.format;
  SCOPED_TRACE(std::string(format.name));
  const std::uint64_t infinity_bits = to_bits(infinity, format);
  int checked = 0;
  for (std::uint64_t k = 0; k < infinity_bits; ++k) {
    const double lower = from_bits(k, format);
    const bool next_is_infinity = k + 1 == infinity_bits;
    const double upper_value = next_is_infinity ? beyond_largest(format) : from_bits(k + 1, format);
    const double upper = next_is_infinity ? infinity : upper_value;
    // Exact: both neighbours have at most 12 significant bits.
    const double midpoint = lower + (upper_value - lower) / 2;
    const double tie_result = k % 2 == 0 ? lower : upper;
    const struct {
      double x, expected;
    } points[] = {{midpoint, tie_result}, {std::nextafter(midpoint, 0.0), lower}, {std::nextafter(midpoint, infinity), upper}};
    for (const auto& point : points) {
      for (const double sign : {1.0, -1.0}) {
        const double x = sign * point.x;
        const double expected = sign * point.expected;
        ASSERT_TRUE(same(round_to_format(x, format), expected)) << hex_float(x);
        ASSERT_EQ(subject.hot_encode(x), to_bits(expected, format)) << hex_float(x);
        if (subject.hardware != nullptr) {
          ASSERT_TRUE(same(subject.hardware(x), expected)) << hex_float(x);
        }
        ++checked;
      }
    }
  }
  EXPECT_EQ(checked, static_cast<int>(infinity_bits) * 6);
}

TEST(RoundToFormat, float16TiesGoToEvenAtEveryMidpoint) {
  check_every_midpoint({format_of(FormatId::float16), round_to_float16_bits, gcc_float16});
}

TEST(RoundToFormat, bfloat16TiesGoToEvenAtEveryMidpoint) {
  check_every_midpoint({format_of(FormatId::bfloat16), round_to_bfloat16_bits, nullptr});
}

// float32 has too many midpoints to visit: sample patterns, weighted toward
// the subnormal, normal and overflow boundaries.
RC_GTEST_PROP(RoundToFormat, float32TiesGoToEvenLikeTheHardware, ()) {
  const Format& format = format_of(FormatId::float32);
  const std::uint64_t infinity_bits = to_bits(infinity, format);
  const std::uint64_t smallest_normal_bits = to_bits(smallest_normal(format), format);
  const auto k = *rc::gen::weightedOneOf<std::uint64_t>({
      {3, rc::gen::inRange<std::uint64_t>(0, infinity_bits)},
      {1, rc::gen::inRange<std::uint64_t>(0, 4)},
      {1, rc::gen::inRange<std::uint64_t>(smallest_normal_bits - 3, smallest_normal_bits + 3)},
      {1, rc::gen::inRange<std::uint64_t>(infinity_bits - 4, infinity_bits)},
  });
  const double lower = from_bits(k, format);
  const bool next_is_infinity = k + 1 == infinity_bits;
  const double upper_value = next_is_infinity ? beyond_largest(format) : from_bits(k + 1, format);
  const double upper = next_is_infinity ? infinity : upper_value;
  const double midpoint = lower + (upper_value - lower) / 2;  // exact: 25 significant bits at most
  RC_ASSERT(same(round_to_format(midpoint, format), k % 2 == 0 ? lower : upper));
  RC_ASSERT(same(hardware_float32(midpoint), k % 2 == 0 ? lower : upper));
  RC_ASSERT(same(round_to_format(std::nextafter(midpoint, 0.0), format), lower));
  RC_ASSERT(same(round_to_format(std::nextafter(midpoint, infinity), format), upper));
}

// Overflow: the threshold is largest finite + half its ulp = 2^emax (2 - 2^-p).
// It rounds to infinity (a tie whose even neighbour is 2^(emax+1)); the
// double just below it rounds to the largest finite.
TEST(RoundToFormat, overflowStartsAtHalfAnUlpAboveTheLargestFinite) {
  for (const FormatId id : {FormatId::float32, FormatId::float16, FormatId::bfloat16}) {
    const Format& format = format_of(id);
    SCOPED_TRACE(std::string(format.name));
    const double threshold = std::ldexp(2.0 - std::ldexp(1.0, -format.precision), format.max_exponent);
    const double just_below = std::nextafter(threshold, 0.0);
    EXPECT_EQ(round_to_format(threshold, format), infinity);
    EXPECT_EQ(round_to_format(-threshold, format), -infinity);
    EXPECT_EQ(round_to_format(just_below, format), largest_finite(format));
    EXPECT_EQ(round_to_format(-just_below, format), -largest_finite(format));
    EXPECT_EQ(round_to_format(std::numeric_limits<double>::max(), format), infinity);
    if (id == FormatId::float32) {
      EXPECT_EQ(hardware_float32(threshold), infinity);
      EXPECT_EQ(hardware_float32(just_below), largest_finite(format));
    }
  }
  EXPECT_EQ(round_to_format(std::numeric_limits<double>::max(), format_of(FormatId::float64)),
            std::numeric_limits<double>::max());
}

// Underflow: half the smallest subnormal is a tie between 0 (even) and the
// smallest subnormal (odd), so it rounds to a zero of its own sign.
TEST(RoundToFormat, underflowKeepsTheSignOfZero) {
  for (const FormatId id : {FormatId::float32, FormatId::float16, FormatId::bfloat16}) {
    const Format& format = format_of(id);
    SCOPED_TRACE(std::string(format.name));
    const double tiny = smallest_subnormal(format);
    EXPECT_TRUE(same(round_to_format(tiny / 2, format), 0.0));
    EXPECT_TRUE(same(round_to_format(-tiny / 2, format), -0.0));
    EXPECT_EQ(round_to_format(std::nextafter(tiny / 2, 1.0), format), tiny);
    EXPECT_EQ(round_to_format(1.5 * tiny, format), 2 * tiny);  // tie: 2 is even
    EXPECT_TRUE(same(round_to_format(-std::numeric_limits<double>::denorm_min(), format), -0.0));
    EXPECT_TRUE(same(round_to_format(-0.0, format), -0.0));
    // The largest subnormal has an all-ones (odd) fraction: the tie above it
    // goes up into the smallest normal.
    EXPECT_EQ(round_to_format(smallest_normal(format) - tiny / 2, format), smallest_normal(format));
  }
}

TEST(RoundToFormat, nanAndInfinitiesStayAsTheyAre) {
  for (const FormatId id : {FormatId::float64, FormatId::float32, FormatId::float16, FormatId::bfloat16}) {
    const Format& format = format_of(id);
    EXPECT_TRUE(std::isnan(round_to_format(std::numeric_limits<double>::quiet_NaN(), format)));
    EXPECT_EQ(round_to_format(infinity, format), infinity);
    EXPECT_EQ(round_to_format(-infinity, format), -infinity);
  }
}

}  // namespace
}  // namespace pecheck
