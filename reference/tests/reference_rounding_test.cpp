// Correct rounding: every sampled entry, in every preset and every format,
// is the format's nearest value to an independent ~530-bit evaluation, and
// bfloat16 is rounded from the exact value, never through float32.
#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <bit>
#include <cmath>
#include <cstdint>
#include <string>
#include <tuple>
#include <vector>

#include "independent_oracle.hpp"
#include "pecheck/reference/reference.hpp"

namespace pecheck::reference {
namespace {

using testing::HighReal;

constexpr unsigned independent_digits = 160;  // ~532 bits

// Positions up to 2^24 - 1, weighted toward both ends of the range.
rc::Gen<std::int64_t> position() {
  return rc::gen::weightedOneOf<std::int64_t>({
      {6, rc::gen::inRange<std::int64_t>(0, max_exact_position)},
      {2, rc::gen::inRange<std::int64_t>(max_exact_position - 256, max_exact_position)},
      {2, rc::gen::inRange<std::int64_t>(0, 64)},
  });
}

// A width the convention accepts: odd widths only where it allows them.
rc::Gen<std::int64_t> width(const Convention& convention) {
  return rc::gen::map(rc::gen::inRange<std::int64_t>(convention.min_dim, 1025), [convention](std::int64_t d) {
    return (d % 2 == 1 && convention.odd_dim == OddDimPolicy::reject) ? d + 1 : d;
  });
}

std::string describe_entry(const Convention& convention, std::int64_t d, std::int64_t row, std::int64_t col) {
  return convention.name + " d=" + std::to_string(d) + " row=" + std::to_string(row) + " col=" + std::to_string(col);
}

// Checks one entry in all four formats and its exact value; fails the property otherwise.
void check_entry(const Convention& convention, std::int64_t d, std::int64_t row, std::int64_t col) {
  const HighReal x = testing::independent_value(convention, d, row, col);
  for (const Format* format : testing::all_formats) {
    const double r = correctly_rounded(convention, d, row, col, *format);
    const std::string failure = testing::rounding_failure(x, r, *format);
    if (!failure.empty()) {
      RC_FAIL(describe_entry(convention, d, row, col) + " in " + std::string(format->name) + ": " + failure);
    }
  }
  // The exact value is the nearest double-double: hi = RN(x), lo = RN(x - hi),
  // which also keeps it within the promised 2^-100 |x|.
  const DoubleDouble exact = exact_value(convention, d, row, col);
  const double hi = testing::round_independently(x, testing::float64_format);
  const double lo = testing::round_independently(x - hi, testing::float64_format);
  if (!(exact.hi == hi && exact.lo == lo && abs(HighReal(exact.hi) + HighReal(exact.lo) - x) <= ldexp(abs(x), -100))) {
    RC_FAIL(describe_entry(convention, d, row, col) + ": the exact value is not the nearest double-double");
  }
}

RC_GTEST_PROP(ReferenceRounding, everySampledEntryIsTheNearestValueOfEachFormat, ()) {
  testing::use_decimal_digits(independent_digits);
  const Convention convention = *rc::gen::elementOf(presets()).as("convention");
  const std::int64_t d = *width(convention).as("d");
  const auto entries = *rc::gen::container<std::vector<std::tuple<std::int64_t, std::int64_t>>>(
                            100, rc::gen::tuple(position(), rc::gen::inRange<std::int64_t>(0, d)))
                            .as("(position, column) pairs");
  for (const auto& [p, col] : entries) check_entry(convention, d, p - convention.position_offset, col);
}

// fairseq's padding row and the odd-width zero column are +0, never -0.
TEST(ReferenceRounding, zeroRowsAndZeroColumnsArePositiveZeroInEveryFormat) {
  const Convention fairseq = *find_preset("fairseq");
  for (const Format* format : testing::all_formats) {
    for (std::int64_t col = 0; col < 9; ++col) {
      const double padding = correctly_rounded(fairseq, 9, 1, col, *format);
      EXPECT_EQ(std::bit_cast<std::uint64_t>(padding), 0u) << "col " << col << ' ' << format->name;
    }
    const double odd_column = correctly_rounded(fairseq, 9, 1000, 8, *format);
    EXPECT_EQ(std::bit_cast<std::uint64_t>(odd_column), 0u) << format->name;
  }
}

// A slow frequency of a custom base makes sin(p w) ~ p * 1.8e-8, straddling
// float16's subnormal range (smallest 2^-24 ~ 6e-8): values round to +0, to
// the tie point 2^-25 region, and to each subnormal in turn.
TEST(ReferenceRounding, tinyValuesRoundThroughFloat16Subnormals) {
  testing::use_decimal_digits(independent_digits);
  Convention slow = *find_preset("vaswani");
  slow.name = "vaswani with base 1e8";
  slow.frequency.base = 1.0e8;
  const std::int64_t d = 64;
  const std::int64_t col = 62;  // sin of the slowest frequency, w = 1e8^(-62/64)
  bool saw_zero = false;
  bool saw_smallest_subnormal = false;
  for (std::int64_t p = 1; p <= 400; ++p) {
    const HighReal x = testing::independent_value(slow, d, p, col);
    for (const Format* format : testing::all_formats) {
      const double r = correctly_rounded(slow, d, p, col, *format);
      EXPECT_EQ(testing::rounding_failure(x, r, *format), "") << "p=" << p << ' ' << format->name;
      if (format->id == FormatId::float16) {
        saw_zero = saw_zero || r == 0.0;
        saw_smallest_subnormal = saw_smallest_subnormal || r == std::ldexp(1.0, -24);
      }
    }
  }
  EXPECT_TRUE(saw_zero) << "the sweep should reach values that underflow to zero";
  EXPECT_TRUE(saw_smallest_subnormal) << "the sweep should reach float16's smallest subnormal";
}

// Rounding x to float32 and then to bfloat16 differs from rounding x to
// bfloat16 when float32 lands exactly on a bfloat16 midpoint and the tie goes
// to the side x is not on (about one position in 2^17). The search finds such
// positions for sin p (column 0 of the paper's layout) with a double-precision
// filter, confirms them at high precision, and checks the oracle rounds directly.
TEST(ReferenceRounding, bfloat16IsRoundedFromTheExactValueNotThroughFloat32) {
  testing::use_decimal_digits(independent_digits);
  const Convention vaswani = *find_preset("vaswani");
  int found = 0;
  for (std::int64_t p = 1; p < max_exact_position && found < 5; ++p) {
    // A float32 whose low 16 bits are 0x8000 is exactly halfway between two bfloat16 values.
    const float candidate = static_cast<float>(std::sin(static_cast<double>(p)));
    if ((std::bit_cast<std::uint32_t>(candidate) & 0xffffu) != 0x8000u) continue;
    const HighReal x = sin(HighReal(p));
    const double direct = testing::round_independently(x, testing::bfloat16_format);
    const double float32_first = testing::round_independently(x, testing::float32_format);
    const double twice = testing::round_independently(HighReal(float32_first), testing::bfloat16_format);
    if (direct == twice) continue;
    ++found;
    EXPECT_EQ(correctly_rounded(vaswani, 2, p, 0, testing::float32_format), float32_first) << "p=" << p;
    EXPECT_EQ(correctly_rounded(vaswani, 2, p, 0, testing::bfloat16_format), direct)
        << "p=" << p << ": the oracle rounded through float32 (gave " << twice << ")";
  }
  EXPECT_EQ(found, 5) << "the search should find positions where double rounding differs";
}

}  // namespace
}  // namespace pecheck::reference
