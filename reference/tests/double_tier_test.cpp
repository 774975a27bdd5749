// The double tier's decision at the places a rounding is hardest to decide:
// narrow_rounding against an exact high-precision rounding of the
// enclosure's ends around midpoints, binade edges and subnormals of every
// narrow format; and a proof, on real entries, that the tier escalates when
// its enclosure straddles a rounding boundary (the tables stay correct).
#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <cstdint>
#include <iostream>
#include <random>

#include "../src/double_tier.hpp"
#include "../src/entry_evaluator.hpp"
#include "../src/table_builder.hpp"
#include "independent_oracle.hpp"
#include "pecheck/reference/reference.hpp"

namespace pecheck::reference {
namespace {

using testing::HighReal;

bool same_bits(double a, double b) { return std::bit_cast<std::uint64_t>(a) == std::bit_cast<std::uint64_t>(b); }

const Format* const narrow_formats[] = {&testing::float32_format, &testing::float16_format, &testing::bfloat16_format};

// The truth for [v - e, v + e]: every real in it rounds to one nonzero value
// r exactly when v - e - t and v + e + t both round to r for a t far below
// any spacing (an end on a midpoint then rounds away from r on one side).
struct Truth {
  bool single = false;
  double value = 0.0;
};
Truth enclosure_truth(double v, double e, const Format& format) {
  const HighReal tiny = ldexp(HighReal(1), -1400);
  const double low = testing::round_independently(HighReal(v) - HighReal(e) - tiny, format);
  const double high = testing::round_independently(HighReal(v) + HighReal(e) + tiny, format);
  return {same_bits(low, high) && low != 0.0, low};
}

// narrow_rounding must decide exactly the enclosures that round to one
// nonzero value (it claims an exact test; only error >= |v| is left to the
// next tier), and decide them right. Values are drawn around the places that
// matter: midpoints, format values, binade edges (where the gap below is half
// the gap above) and the subnormal range, with errors from far below to
// above the spacing.
TEST(DoubleTier, decidesExactlyTheEnclosuresInsideOneRoundingInterval) {
  testing::use_decimal_digits(450);  // ~1500 bits: v - e - 2^-1400 is exact
  std::mt19937_64 random(0x11d0ab1e);
  for (const Format* format : narrow_formats) {
    const NarrowFormat narrow = narrow_format(*format);
    const int lowest = format->min_exponent - format->precision;  // below: rounds to zero
    std::uniform_int_distribution<int> binade(lowest, 2);
    std::uniform_int_distribution<int> place(0, 3);
    std::uniform_int_distribution<int> depth(0, 60);
    std::uniform_real_distribution<double> unit(0.0, 1.0);
    std::int64_t decided = 0, undecided = 0, edges = 0;
    for (int k = 0; k < 40000; ++k) {
      const int e = binade(random);
      const int q = testing::quantum_exponent(e, *format);
      const double spacing = std::ldexp(1.0, q);
      const auto units = static_cast<double>(random() >> (64 - std::max(1, std::min(format->precision - 1, e - q))));
      double anchor = std::ldexp(1.0, e) + units * spacing;  // a format value in binade e
      switch (place(random)) {
        case 0:
          anchor += spacing / 2;
          break;  // a midpoint
        case 1:
          anchor = std::ldexp(1.0, e);
          ++edges;
          break;  // a binade edge
        case 2:
          anchor = std::ldexp(1.0, e) - spacing / 4;
          ++edges;
          break;  // the midpoint below an edge
        default:
          break;  // a format value
      }
      const double offset = (unit(random) - 0.5) * std::ldexp(spacing, -depth(random));
      const double v = (random() & 1 ? 1.0 : -1.0) * (anchor + offset);
      const double error = unit(random) * std::ldexp(spacing, -depth(random));
      if (!(std::fabs(v) >= 0x1p-900) || !(error < std::fabs(v))) continue;
      const NarrowRounding got = narrow_rounding(v, error, narrow);
      const Truth truth = enclosure_truth(v, error, *format);
      ASSERT_EQ(got.decided, truth.single) << format->name << ": v " << std::hexfloat << v << " error " << error;
      if (got.decided) {
        ASSERT_TRUE(same_bits(got.value, truth.value)) << format->name << ": v " << std::hexfloat << v;
        ++decided;
      } else {
        ++undecided;
      }
    }
    std::cout << format->name << ": " << decided << " decided, " << undecided << " undecided, " << edges
              << " around binade edges\n";
    EXPECT_GT(decided, 1000);
    EXPECT_GT(undecided, 1000);
  }
}

// A constructed straddle: v a hair above a float32 midpoint, its error a
// hair larger than that distance, must not be decided; a hair smaller must.
TEST(DoubleTier, anEnclosureReachingAFloat32MidpointIsNotDecided) {
  const NarrowFormat f32 = narrow_format(testing::float32_format);
  const double midpoint = 0.75 + 0x1p-25;  // between 0.75 and 0.75 + 2^-24
  const double v = midpoint + 0x1p-50;
  EXPECT_FALSE(narrow_rounding(v, 0x1p-50, f32).decided);  // reaches the midpoint itself
  EXPECT_FALSE(narrow_rounding(v, 0x1.1p-50, f32).decided);
  const NarrowRounding inside = narrow_rounding(v, 0x1.fp-51, f32);
  EXPECT_TRUE(inside.decided);
  EXPECT_EQ(inside.value, 0.75 + 0x1p-24);
  // Just below 1 the gap is half the gap above: the midpoint is 1 - 2^-25.
  EXPECT_FALSE(narrow_rounding(1.0 - 0x1p-25 + 0x1p-52, 0x1p-51, f32).decided);
  EXPECT_EQ(narrow_rounding(1.0 - 0x1p-25 + 0x1p-50, 0x1p-52, f32).value, 1.0);
}

// Real entries: rows of vaswani d = 1024 just below 2^24 are scanned with
// the double tier until it leaves float32 roundings undecided (about one
// in 2^25 entries). Each must be an entry whose exact value (MPFR, 400
// bits) lies within twice the tier's bound of a float32 rounding boundary,
// i.e. an enclosure that really reaches one, and the table of its row must
// count the fallback and still equal the MPFR path bit for bit.
TEST(DoubleTier, escalatesEntriesWhoseEnclosureStraddlesAFloat32Midpoint) {
  testing::use_decimal_digits(120);
  const Convention vaswani = *find_preset("vaswani");
  constexpr std::int64_t dim = 1024;
  const Format& float32 = format_of(FormatId::float32);
  const NarrowFormat f32 = narrow_format(float32);
  EntryEvaluator evaluator(vaswani, dim, default_first_precision, FirstStep::double_word);
  RowDecisions decisions;
  int found = 0;
  for (std::int64_t position = max_exact_position; position > max_exact_position - 131072 && found < 3; --position) {
    const StepsFrequencies* frequencies = evaluator.row_frequencies(position);
    ASSERT_NE(frequencies, nullptr);
    double_tier_row(position, *frequencies, f32, std::numeric_limits<double>::infinity(), true, decisions);
    for (std::size_t i = 0; i < decisions.sin_done.size(); ++i) {
      for (const bool is_sin : {true, false}) {
        if ((is_sin ? decisions.sin_done : decisions.cos_done)[i] != 0) continue;
        ++found;
        const double v = (is_sin ? decisions.sin_hi : decisions.cos_hi)[i];
        const DoubleEnclosure e =
            double_tier_sin_cos(static_cast<double>(position), frequencies->f0[i], frequencies->f1[i],
                                frequencies->f2[i], frequencies->error[i], double_tier_constants());
        const double error = is_sin ? e.sin_error : e.cos_error;
        const std::int64_t col = 2 * static_cast<std::int64_t>(i) + (is_sin ? 0 : 1);  // interleaved
        const HighReal exact = testing::independent_value(vaswani, dim, position, col);
        // The nearest boundary: the midpoint between the rounding and its neighbour on the exact value's side.
        const double rounded = testing::round_independently(exact, float32);
        const double neighbour = exact > HighReal(rounded) ? testing::format_next_up(rounded, float32)
                                                           : testing::format_next_down(rounded, float32);
        const HighReal boundary = (HighReal(rounded) + HighReal(neighbour)) / 2;
        const double distance = abs(exact - boundary).convert_to<double>();
        std::cout << "position " << position << " column " << col << ": " << std::hexfloat << v << std::defaultfloat
                  << " within " << error << ", exact value " << distance << " from the float32 boundary\n";
        EXPECT_LE(distance, 2 * error) << "undecided although no boundary is near";
        EXPECT_EQ(v, (is_sin ? decisions.sin_hi : decisions.cos_hi)[i]);

        const ReferenceTable row =
            reference_table(vaswani, {1, dim, position}, FormatId::float32, 1, ExactValues::none);
        EXPECT_GE(row.double_word_fallbacks, 1);
        EXPECT_TRUE(same_bits(row.rounded.at(0, col), rounded)) << "position " << position << " column " << col;
        EXPECT_TRUE(same_bits(row.rounded.at(0, col), correctly_rounded(vaswani, dim, position, col, float32)));
      }
    }
  }
  EXPECT_GE(found, 1) << "no undecided float32 rounding in 131072 rows: the search is too short";
}

}  // namespace
}  // namespace pecheck::reference
