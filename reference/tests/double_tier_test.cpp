// The double tier's decision at the places a rounding is hardest to decide:
// narrow_rounding against an exact high-precision rounding of the
// enclosure's ends around midpoints, binade edges and subnormals of every
// narrow format; and a proof, on real entries, that the tier escalates when
// its enclosure straddles a rounding boundary (the tables stay correct).
#include <gtest/gtest.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <iostream>
#include <random>
#include <string>
#include <vector>

#include "../src/double_tier.hpp"
#include "../src/enclosure_decision.hpp"
#include "../src/entry_evaluator.hpp"
#include "../src/table_builder.hpp"
#include "../src/turn_constants.hpp"
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

// The row kernels (their rounding loops in blocks of eight and a tail,
// flagged_loop.hpp) against the entry they are made of, one entry at a time,
// for every count up to a few blocks past a row of 64: every value and
// rounding bit for bit, every flag. At the tolerance 2^-50 some entries pass
// and others not; entries a whole number of half or quarter turns from 0 give
// up (a remainder of 0) and entries near a quarter turn have a cos near 0, so
// every pair of sin and cos flags occurs. The outputs are filled beforehand
// with values no entry gives, so an entry left unwritten shows.
TEST(DoubleTier, theRowKernelsAreTheirEntryAtEveryCount) {
  std::mt19937_64 random(0x243f6a8885a308d3ULL);  // fixed seed: the same entries every run
  std::uniform_real_distribution<double> unit(0.0, 1.0);
  const auto next = [&] { return unit(random); };
  const std::size_t most = 83;
  const std::int64_t position = 12345;
  std::vector<StepsFrequency> all(most);
  std::vector<double> positions(most);
  for (std::size_t i = 0; i < most; ++i) {
    StepsFrequency& f = all[i];
    if (i % 9 == 4) {
      f.f0 = static_cast<double>(table_steps / (i % 2 == 0 ? 2 : 4));  // whole half or quarter turns
    } else if (i % 9 == 7) {
      f.f0 = static_cast<double>(table_steps / 4) + 0x1p-20;  // near a quarter turn: cos near 0
    } else {
      f.f0 = std::ldexp(1.0 + next(), static_cast<int>(next() * 30.0) - 20);
      f.f1 = (next() - 0.5) * 0x1p-53 * f.f0;
      f.f2 = (next() - 0.5) * 0x1p-53 * std::fabs(f.f1);
    }
    f.error = 0x1p-150 * f.f0;
    positions[i] = static_cast<double>(i % 9 == 4 ? position : position + 37 * static_cast<std::int64_t>(i));
  }
  const NarrowFormat format = narrow_format(testing::float32_format);
  const double tolerance = 0x1p-50;
  const DoubleTierConstants k = double_tier_constants();
  const auto bits = [](double x) { return std::bit_cast<std::uint64_t>(x); };
  const auto filled = [](std::size_t count) {
    RowDecisions out;
    out.resize(count);
    for (std::vector<double>* v : {&out.sin_rounded, &out.cos_rounded, &out.sin_lo, &out.cos_lo})
      v->assign(count, -7.0);
    std::fill(out.sin_hi.begin(), out.sin_hi.end(), -7.0);
    std::fill(out.cos_hi.begin(), out.cos_hi.end(), -7.0);
    out.sin_done.assign(count, 9);
    out.cos_done.assign(count, 9);
    return out;
  };
  std::size_t seen[4] = {};  // rounding rows' entries by sin_done + 2 cos_done
  for (std::size_t count = 0; count <= most; ++count) {
    const StepsFrequencies frequencies(std::vector<StepsFrequency>(all.begin(), all.begin() + count));
    ASSERT_TRUE(first_step_applies_to_row(position, frequencies));
    for (const bool decide_rounding : {true, false}) {
      RowDecisions row = filled(count);
      double_tier_row(position, frequencies, format, tolerance, decide_rounding, row);
      for (std::size_t i = 0; i < count; ++i) {
        const DoubleEnclosure e =
            double_tier_sin_cos(static_cast<double>(position), all[i].f0, all[i].f1, all[i].f2, all[i].error, k);
        const NarrowRounding s = narrow_rounding(e.sin_value, e.sin_error, format);
        const NarrowRounding c = narrow_rounding(e.cos_value, e.cos_error, format);
        const bool sin_done = (!decide_rounding || s.decided) && within_relative(e.sin_value, e.sin_error, tolerance);
        const bool cos_done = (!decide_rounding || c.decided) && within_relative(e.cos_value, e.cos_error, tolerance);
        const std::string at = "row, count " + std::to_string(count) + ", entry " + std::to_string(i) +
                               (decide_rounding ? ", rounding" : ", exact only");
        EXPECT_EQ(bits(row.sin_hi[i]), bits(e.sin_value)) << at;
        EXPECT_EQ(bits(row.cos_hi[i]), bits(e.cos_value)) << at;
        if (decide_rounding) {
          EXPECT_EQ(bits(row.sin_rounded[i]), bits(s.value)) << at;
          EXPECT_EQ(bits(row.cos_rounded[i]), bits(c.value)) << at;
        }
        EXPECT_EQ(row.sin_done[i], sin_done ? 1 : 0) << at;
        EXPECT_EQ(row.cos_done[i], cos_done ? 1 : 0) << at;
        if (decide_rounding) ++seen[(sin_done ? 1 : 0) + (cos_done ? 2 : 0)];
      }
    }
    // Positions of their own, scaled (each branch of the scaling) or not.
    for (const double factor : {1.0, -0x1.3p0}) {
      RowDecisions row = filled(count);
      double_tier_entries(positions.data(), frequencies, factor, format, tolerance, row);
      for (std::size_t i = 0; i < count; ++i) {
        const DoubleEnclosure e = double_tier_sin_cos(positions[i], all[i].f0, all[i].f1, all[i].f2, all[i].error, k);
        double sin_value = e.sin_value, sin_error = e.sin_error, cos_value = e.cos_value, cos_error = e.cos_error;
        if (factor != 1.0) {  // double_tier.hpp's bound for the product by the factor
          sin_value *= factor;
          cos_value *= factor;
          sin_error = (std::fabs(factor) * sin_error + 0x1p-53 * std::fabs(sin_value)) * (1.0 + 0x1p-50);
          cos_error = (std::fabs(factor) * cos_error + 0x1p-53 * std::fabs(cos_value)) * (1.0 + 0x1p-50);
        }
        const NarrowRounding s = narrow_rounding(sin_value, sin_error, format);
        const NarrowRounding c = narrow_rounding(cos_value, cos_error, format);
        const std::string at = "entries, factor " + std::to_string(factor) + ", count " + std::to_string(count) +
                               ", entry " + std::to_string(i);
        EXPECT_EQ(bits(row.sin_hi[i]), bits(sin_value)) << at;
        EXPECT_EQ(bits(row.cos_hi[i]), bits(cos_value)) << at;
        EXPECT_EQ(bits(row.sin_rounded[i]), bits(s.value)) << at;
        EXPECT_EQ(bits(row.cos_rounded[i]), bits(c.value)) << at;
        EXPECT_EQ(row.sin_done[i], (s.decided && within_relative(sin_value, sin_error, tolerance)) ? 1 : 0) << at;
        EXPECT_EQ(row.cos_done[i], (c.decided && within_relative(cos_value, cos_error, tolerance)) ? 1 : 0) << at;
      }
    }
  }
  for (const std::size_t n : seen) EXPECT_GT(n, 0U);
}

}  // namespace
}  // namespace pecheck::reference
