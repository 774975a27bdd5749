// The oracle against values known in closed form: position 0, column 0 of
// the paper's layout (w_0 = 1, so the entry is sin p), and sin^2 + cos^2 = 1.
#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <cmath>
#include <cstdint>
#include <random>

#include "independent_oracle.hpp"
#include "pecheck/reference/reference.hpp"
#include "pecheck/testing/presets.hpp"

namespace pecheck::reference {
namespace {

using testing::HighReal;

HighReal as_high(const DoubleDouble& x) { return HighReal(x.hi) + HighReal(x.lo); }

using testing::preset;

TEST(ReferenceClosedForms, positionZeroIsExactlyZeroInSinSlotsAndOneInCosSlots) {
  testing::use_decimal_digits(60);
  for (const Convention& convention : presets()) {
    for (std::int64_t d : {std::int64_t{4}, std::int64_t{7}, std::int64_t{64}, std::int64_t{65}}) {
      if (d % 2 == 1 && convention.odd_dim == OddDimPolicy::reject) continue;
      const std::int64_t row = -convention.position_offset;  // the row holding position 0
      for (std::int64_t col = 0; col < d; ++col) {
        const testing::IndependentColumn column = testing::independent_column(convention, d, col);
        const double expected = column.kind == ColumnKind::cos ? 1.0 : 0.0;
        const DoubleDouble exact = exact_value(convention, d, row, col);
        EXPECT_EQ(exact.hi, expected) << convention.name << " d=" << d << " col=" << col;
        EXPECT_EQ(exact.lo, 0.0);
        EXPECT_FALSE(std::signbit(exact.hi)) << "sin 0 and zero columns are +0";
        for (const Format* format : testing::all_formats) {
          const double rounded = correctly_rounded(convention, d, row, col, *format);
          EXPECT_EQ(rounded, expected) << convention.name << " d=" << d << " col=" << col << ' ' << format->name;
          EXPECT_FALSE(std::signbit(rounded));
        }
      }
    }
  }
}

// sin p computed by Boost at ~1000 bits and rounded by the tests' own
// rounding; the oracle must agree bit for bit in every format.
TEST(ReferenceClosedForms, vaswaniColumnZeroIsSinOfThePosition) {
  testing::use_decimal_digits(302);
  const Convention vaswani = preset("vaswani");
  std::vector<std::int64_t> positions{1, 2, 3, 22, 355, 103993, 104348, 833719, max_exact_position - 1};
  const std::uint64_t seed = 20240611;  // fixed so a failure reproduces
  std::mt19937_64 random(seed);
  std::uniform_int_distribution<std::int64_t> any_position(1, max_exact_position - 1);
  for (int k = 0; k < 200; ++k) positions.push_back(any_position(random));
  for (std::int64_t p : positions) {
    const HighReal sin_p = sin(HighReal(p));
    for (const Format* format : testing::all_formats) {
      EXPECT_EQ(correctly_rounded(vaswani, 8, p, 0, *format), testing::round_independently(sin_p, *format))
          << "p=" << p << ' ' << format->name << " seed=" << seed;
    }
    // exact_value promises a relative error below 2^-100.
    EXPECT_LE(abs(as_high(exact_value(vaswani, 8, p, 0)) - sin_p), ldexp(abs(sin_p), -100)) << "p=" << p;
  }
}

// With s and c each within 2^-100 relative of sin and cos,
// |s^2 + c^2 - 1| <= (2 * 2^-100 + 2^-200)(sin^2 + cos^2) < 2^-98.
RC_GTEST_PROP(ReferenceClosedForms, sinSquaredPlusCosSquaredIsOneForEveryFrequencyPair, ()) {
  testing::use_decimal_digits(60);
  const Convention convention = *rc::gen::elementOf(presets()).as("convention");
  const std::int64_t half = *rc::gen::inRange<std::int64_t>(2, 513).as("d/2");
  const std::int64_t d = 2 * half;
  const std::int64_t i = *rc::gen::inRange<std::int64_t>(0, half).as("frequency");
  const std::int64_t p = *rc::gen::inRange<std::int64_t>(0, max_exact_position - 1).as("position");
  std::int64_t sin_col = -1;
  std::int64_t cos_col = -1;
  for (std::int64_t c = 0; c < d; ++c) {
    const testing::IndependentColumn column = testing::independent_column(convention, d, c);
    if (column.frequency != i) continue;
    if (column.kind == ColumnKind::sin) sin_col = c;
    if (column.kind == ColumnKind::cos) cos_col = c;
  }
  RC_ASSERT(sin_col >= 0);
  RC_ASSERT(cos_col >= 0);
  std::int64_t row = p - convention.position_offset;
  if (is_zero_row(convention, row)) ++row;  // zero rows are isolated in every preset

  const HighReal s = as_high(exact_value(convention, d, row, sin_col));
  const HighReal c = as_high(exact_value(convention, d, row, cos_col));
  RC_ASSERT(abs(s * s + c * c - 1) < ldexp(HighReal(1), -98));
}

}  // namespace
}  // namespace pecheck::reference
