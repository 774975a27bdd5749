// The rotated-output oracle's double tier (rotated_double_tier.hpp, used by
// RotatedOracle::rotate_row):
//   - at rounding boundaries built by hand, the tier decides an output only
//     when its bound lies inside one rounding interval, and rounds it right;
//   - through the oracle, whole rows of every preset in every narrow format,
//     on random inputs and on inputs chosen to put an output as near a
//     midpoint of the format as the format's inputs allow, agree with the
//     independent high-precision rotation (rotary_independent.hpp) rounded
//     by its own rounding, and with rotate() pair by pair.
#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>
#include <map>
#include <random>
#include <string>
#include <vector>

#include "double_word.hpp"
#include "enclosure_decision.hpp"
#include "pecheck/reference/reference.hpp"
#include "pecheck/reference/rotated_reference.hpp"
#include "pecheck/testing/presets.hpp"
#include "rotary_independent.hpp"
#include "rotated_double_tier.hpp"

namespace pecheck {
namespace {

using testing::HighReal;

// One pair through the tier with a hand-made cos and sin and their bounds.
struct TierResult {
  double first, second, first_exact;
  bool done;
};
TierResult one_pair(double c, double c_error, double s, double s_error, double xa, double xb, double factor,
                    FormatId format) {
  reference::RotatedRowTrig trig{{s}, {s_error}, {c}, {c_error}};
  double first = 0.0, second = 0.0, first_exact = 0.0, second_exact = 0.0;
  unsigned char done = 0;
  reference::rotated_double_tier(trig, &xa, &xb, 1, factor, reference::narrow_format(format_of(format)),
                                 reference::exact_tolerance(reference::ExactValues::for_format, format),
                                 {&first, &second, &first_exact, &second_exact, &done});
  return {first, second, first_exact, done != 0};
}

TEST(RotatedDoubleTier, decidesOnlyInsideOneRoundingInterval) {
  // cos = 1 and sin = 0 within 2^-60: out_a = x_a, out_b = x_b, each within
  // about 2^-60 |x| plus the roundings' 2^-52 |x|.
  const double tight = 0x1p-60;
  // 1 + 2^-8 is the bfloat16 midpoint between 1 and 1 + 2^-7: undecided.
  EXPECT_FALSE(one_pair(1.0, tight, 0.0, tight, 1.0 + 0x1p-8, 0.5, 1.0, FormatId::bfloat16).done);
  // 2^-40 above or below it, beyond the bound: decided, up or down.
  TierResult up = one_pair(1.0, tight, 0.0, tight, 1.0 + 0x1p-8 + 0x1p-40, 0.5, 1.0, FormatId::bfloat16);
  ASSERT_TRUE(up.done);
  EXPECT_EQ(up.first, 1.0 + 0x1p-7);
  EXPECT_EQ(up.second, 0.5);
  TierResult down = one_pair(1.0, tight, 0.0, tight, 1.0 + 0x1p-8 - 0x1p-40, 0.5, 1.0, FormatId::bfloat16);
  ASSERT_TRUE(down.done);
  EXPECT_EQ(down.first, 1.0);
  // The same distance with a cos bound of 2^-30: the enclosure straddles.
  EXPECT_FALSE(one_pair(1.0, 0x1p-30, 0.0, tight, 1.0 + 0x1p-8 + 0x1p-40, 0.5, 1.0, FormatId::bfloat16).done);
  // A binade edge: below 1 the bfloat16 spacing is 2^-8, so 1 - 2^-9 is the
  // midpoint between 1 - 2^-8 and 1; just above it rounds to 1.
  EXPECT_FALSE(one_pair(1.0, tight, 0.0, tight, 1.0 - 0x1p-9, 0.5, 1.0, FormatId::bfloat16).done);
  TierResult edge = one_pair(1.0, tight, 0.0, tight, 1.0 - 0x1p-9 + 0x1p-40, 0.5, 1.0, FormatId::bfloat16);
  ASSERT_TRUE(edge.done);
  EXPECT_EQ(edge.first, 1.0);
  // float32: 1 + 2^-24 is a midpoint; the factor scales value and bound.
  EXPECT_FALSE(one_pair(1.0, tight, 0.0, tight, 1.0 + 0x1p-24, 0.5, 1.0, FormatId::float32).done);
  TierResult scaled = one_pair(1.0, tight, 0.0, tight, 0.5 + 0x1p-25 + 0x1p-45, 0.5, 2.0, FormatId::float32);
  ASSERT_TRUE(scaled.done);
  EXPECT_EQ(scaled.first, 1.0 + 0x1p-23);
  // A rotation that cancels (x_a c ~ x_b s) leaves |out_a| far below its
  // bound's 2^-52 |x_a c|: not within the exact values' tolerance, undecided.
  const double c = std::cos(0.5), s = std::sin(0.5);
  EXPECT_FALSE(one_pair(c, tight, s, tight, s, c, 1.0, FormatId::float16).done);
  // Zero and non-finite inputs and outputs go down a tier.
  EXPECT_FALSE(one_pair(1.0, tight, 0.0, tight, 0.0, 0.0, 1.0, FormatId::float32).done);
  EXPECT_FALSE(one_pair(1.0, tight, 0.0, tight, std::nan(""), 1.0, 1.0, FormatId::float32).done);
  EXPECT_FALSE(one_pair(1.0, tight, 0.0, tight, std::numeric_limits<double>::infinity(), 1.0, 1.0, FormatId::float32).done);
  EXPECT_FALSE(one_pair(1.0, std::numeric_limits<double>::infinity(), 0.0, tight, 1.5, 1.0, 1.0, FormatId::float32).done);
}

const std::int64_t sampled_positions[] = {1, 2, 257, 2049, 8193, 131071, 1000003, 12345678, 16777215};
const FormatId narrow_formats[] = {FormatId::float32, FormatId::float16, FormatId::bfloat16};

HighReal exact_inv_freq(const RotaryConvention& c, std::int64_t i) { return testing::cached_independent_inv_freq(c, i); }

double random_value(std::mt19937_64& random, const Format& format) {
  std::uniform_real_distribution<double> exponent(-4.0, 4.0);
  std::uniform_int_distribution<int> sign(0, 1);
  return round_to_format(std::exp2(exponent(random)) * (sign(random) ? -1.0 : 1.0), format);
}

// x_a, a whole number below 2^q (q the format's precision, so a value of the
// format), for which x_a * value (x_b = 0: out_a = A x_a cos t) lies nearest
// a midpoint of the format: every candidate for 16-bit formats, 2^16 drawn
// ones for float32; the distance measured in double-double.
double near_midpoint_input(double value, const Format& format, std::mt19937_64& random) {
  const std::int64_t top = std::int64_t{1} << format.precision;
  const auto distance = [&](std::int64_t k) {
    const reference::DoubleWord product = reference::exact_product(static_cast<double>(k), value);
    const double magnitude = std::fabs(product.hi);
    const double spacing = std::ldexp(1.0, std::ilogb(magnitude) + 1 - format.precision);
    // Offset from the nearest midpoint, in spacings.
    const double scaled = (product.hi / spacing) - 0.5;
    const double nearest = std::nearbyint(scaled);
    return std::fabs((scaled - nearest) + product.lo / spacing);
  };
  std::int64_t best = top - 1;
  double best_distance = distance(best);
  const auto consider = [&](std::int64_t k) {
    const double d = distance(k);
    if (d < best_distance) best = k, best_distance = d;
  };
  if (format.precision <= 11) {
    for (std::int64_t k = top / 2; k < top; ++k) consider(k);
  } else {
    std::uniform_int_distribution<std::int64_t> draw(top / 2, top - 1);
    for (int n = 0; n < 65536; ++n) consider(draw(random));
  }
  return static_cast<double>(best);
}


TEST(RotatedDoubleTier, rowsAreCorrectlyRoundedForEveryPresetInEveryNarrowFormat) {
  testing::use_decimal_digits(400);
  std::mt19937_64 random(20261127);
  std::int64_t by_double_tier = 0, rotated = 0;
  for (const RotaryConvention& c : testing::every_rotary_rule()) {
    const double factor = rotary_derived(c).attention_factor;
    const std::int64_t n = rotary_derived(c).frequencies;
    const std::int64_t checked[] = {0, n / 3, n - 1};  // against the independent rotation
    for (const FormatId format_id : narrow_formats) {
      const Format& format = format_of(format_id);
      reference::RotatedOracle row_oracle(c, format_id);
      reference::RotatedOracle pair_oracle(c, format_id);
      for (const std::int64_t p : sampled_positions) {
        std::vector<double> xa(static_cast<std::size_t>(n)), xb(xa.size());
        for (std::size_t i = 0; i < xa.size(); ++i) xa[i] = random_value(random, format), xb[i] = random_value(random, format);
        // Frequency n / 3's pair near a midpoint: x_b = 0 and x_a chosen for A cos t.
        const HighReal theta_mid = exact_inv_freq(c, n / 3) * p;
        const auto mid = static_cast<std::size_t>(n / 3);
        xa[mid] = near_midpoint_input(static_cast<double>(HighReal(factor) * cos(theta_mid)), format, random);
        xb[mid] = 0.0;
        std::vector<reference::RotatedPair> out(xa.size());
        std::vector<reference::RotatedExact> exact(xa.size());
        row_oracle.rotate_row(p, xa, xb, out, exact);
        const std::string where = c.name + " " + std::string(format.name) + " p " + std::to_string(p);
        for (std::int64_t i = 0; i < n; ++i) {
          const auto k = static_cast<std::size_t>(i);
          const reference::RotatedPair pair = pair_oracle.rotate(p, i, xa[k], xb[k]);
          EXPECT_EQ(out[k].first, pair.first) << where << " i " << i;
          EXPECT_EQ(out[k].second, pair.second) << where << " i " << i;
        }
        for (const std::int64_t i : checked) {
          const auto k = static_cast<std::size_t>(i);
          const HighReal theta = exact_inv_freq(c, i) * p;
          const HighReal a(factor);
          const HighReal first = a * (HighReal(xa[k]) * cos(theta) - HighReal(xb[k]) * sin(theta));
          const HighReal second = a * (HighReal(xa[k]) * sin(theta) + HighReal(xb[k]) * cos(theta));
          EXPECT_EQ(out[k].first, testing::round_independently(first, format))
              << where << " i " << i << ": " << testing::rounding_failure(first, out[k].first, format);
          EXPECT_EQ(out[k].second, testing::round_independently(second, format))
              << where << " i " << i << ": " << testing::rounding_failure(second, out[k].second, format);
          // The exact values within 2^-(precision + 20) relative (ExactValues::for_format).
          const double tolerance = std::ldexp(1.0, -(format.precision + 20));
          for (const auto& [value, truth] : {std::pair{exact[k].first, first}, std::pair{exact[k].second, second}}) {
            if (truth == 0) continue;
            const HighReal got = HighReal(value.hi) + HighReal(value.lo);
            EXPECT_LE(static_cast<double>(abs((got - truth) / truth)), tolerance) << where << " i " << i;
          }
        }
      }
      by_double_tier += row_oracle.pairs_double_tier();
      rotated += row_oracle.pairs_rotated();
    }
  }
  RecordProperty("pairs_by_double_tier", std::to_string(by_double_tier));
  RecordProperty("pairs_rotated", std::to_string(rotated));
  // The tier is what decides a row (the rest is the exception): if it
  // decided nothing, the rows above tested rotate() alone.
  EXPECT_GT(by_double_tier, rotated * 9 / 10);
}

// The row loop (blocks of eight and a tail, flagged_loop.hpp) against the
// entry it is made of (rotated_output, narrow_rounding, within_relative), one
// pair at a time, for every count up to a few blocks past a row of 64, both
// with and without an attention factor: every flag, and every value of a
// pair decided, bit for bit. Some pairs are zeros (never decided), some near
// a bfloat16 midpoint (undecided by their bound), so both flags occur. The
// outputs are filled beforehand with values no pair gives, and one entry past
// count must keep them.
TEST(RotatedDoubleTier, theRowLoopIsItsEntryAtEveryCount) {
  std::mt19937_64 random(0xa4093822299f31d0ULL);  // fixed seed: the same entries every run
  std::uniform_real_distribution<double> unit(0.0, 1.0);
  const auto next = [&] { return unit(random); };
  const std::size_t most = 83;
  const Format& bfloat16 = format_of(FormatId::bfloat16);
  reference::RotatedRowTrig trig;
  std::vector<double> xa(most), xb(most);
  for (std::size_t i = 0; i < most; ++i) {
    const double t = 6.283185307179586 * next();
    trig.cos_value.push_back(std::cos(t));
    trig.sin_value.push_back(std::sin(t));
    trig.cos_error.push_back(0x1p-52 * std::fabs(std::cos(t)));
    trig.sin_error.push_back(0x1p-52 * std::fabs(std::sin(t)));
    xa[i] = pecheck::round_to_format(4.0 * next() - 2.0, bfloat16);
    xb[i] = pecheck::round_to_format(4.0 * next() - 2.0, bfloat16);
    if (i % 7 == 3) xa[i] = xb[i] = 0.0;  // outputs 0: undecided
    if (i % 7 == 5) {                     // cos 1, sin 0: the first output x_a, a hair off a bfloat16 midpoint
      trig.cos_value[i] = 1.0;
      trig.sin_value[i] = 0.0;
      trig.cos_error[i] = trig.sin_error[i] = 0x1p-60;
      xa[i] = 1.0 + 0x1p-8 + (i % 2 == 0 ? 0x1p-52 : 0.0);
    }
  }
  const reference::NarrowFormat format = reference::narrow_format(bfloat16);
  const double tolerance = reference::exact_tolerance(reference::ExactValues::for_format, FormatId::bfloat16);
  const auto bits = [](double x) { return std::bit_cast<std::uint64_t>(x); };
  std::size_t seen[2] = {};
  for (const double factor : {1.0, 0x1.3p0}) {
    for (std::size_t count = 0; count <= most; ++count) {
      std::vector<double> first(count + 1, -7.0), second(count + 1, -7.0), first_exact(count + 1, -7.0),
          second_exact(count + 1, -7.0);
      std::vector<unsigned char> done(count + 1, 9);
      reference::rotated_double_tier(
          trig, xa.data(), xb.data(), count, factor, format, tolerance,
          {first.data(), second.data(), first_exact.data(), second_exact.data(), done.data()});
      for (std::size_t i = 0; i < count; ++i) {
        const reference::RotatedOutput a =
            reference::rotated_output(xa[i], trig.cos_value[i], trig.cos_error[i], -xb[i], trig.sin_value[i],
                                      trig.sin_error[i], factor, std::fabs(factor));
        const reference::RotatedOutput b =
            reference::rotated_output(xa[i], trig.sin_value[i], trig.sin_error[i], xb[i], trig.cos_value[i],
                                      trig.cos_error[i], factor, std::fabs(factor));
        const reference::NarrowRounding ra = reference::narrow_rounding(a.value, a.error, format);
        const reference::NarrowRounding rb = reference::narrow_rounding(b.value, b.error, format);
        const bool decided = ra.decided && rb.decided && reference::within_relative(a.value, a.error, tolerance) &&
                             reference::within_relative(b.value, b.error, tolerance);
        const std::string at =
            "factor " + std::to_string(factor) + ", count " + std::to_string(count) + ", pair " + std::to_string(i);
        EXPECT_EQ(done[i], decided ? 1 : 0) << at;
        ++seen[decided ? 1 : 0];
        if (!decided) continue;
        EXPECT_EQ(bits(first[i]), bits(ra.value)) << at;
        EXPECT_EQ(bits(second[i]), bits(rb.value)) << at;
        EXPECT_EQ(bits(first_exact[i]), bits(a.value)) << at;
        EXPECT_EQ(bits(second_exact[i]), bits(b.value)) << at;
      }
      EXPECT_EQ(first[count], -7.0);
      EXPECT_EQ(second_exact[count], -7.0);
      EXPECT_EQ(done[count], 9);
    }
  }
  EXPECT_GT(seen[0], 0U);
  EXPECT_GT(seen[1], 0U);
}

}  // namespace
}  // namespace pecheck
