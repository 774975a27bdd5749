// The angle-sum tier (reference/src/angle_sum_tier.hpp): every entry it
// settles against MPFR alone (RotaryEntryEvaluator), on every rotary preset
// and every scaling rule, in float32, float16 and bfloat16, at rows near 0,
// on both sides of anchor rows and below 2^24; and its kernel's bound
// against exact arithmetic on inputs built to reach it, so that a term
// dropped from the derivation (angle_sum_kernel.cpp) fails here.
#include <gtest/gtest.h>
#include <mpfr.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>
#include <numbers>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "angle_sum_kernel.hpp"
#include "angle_sum_tier.hpp"
#include "enclosure_decision.hpp"
#include "pecheck/reference/reference.hpp"
#include "pecheck/rotary_convention.hpp"
#include "rotary_entry.hpp"
#include "rotary_tiers.hpp"

namespace pecheck::reference {
namespace {

// a within `tolerance` relative of the exact x, knowing MPFR's double-double
// b (|b - x| <= 2^-106 |x|): as rotary_tiers_test.cpp's check.
bool within(double a, const DoubleDouble& b, double tolerance) {
  const double difference = (a - b.hi) - b.lo;
  return std::fabs(difference) <= (tolerance + 0x1p-104) * std::fabs(b.hi);
}

// The presets, and the scaling rules no preset has, on llama2's shape.
std::vector<RotaryConvention> conventions() {
  std::vector<RotaryConvention> all = rotary_presets();
  const RotaryConvention llama2 = *find_rotary_preset("llama2");
  RotaryConvention linear = llama2;
  linear.name = "llama2 linear x4";
  linear.scaling.kind = RotaryScalingKind::linear;
  linear.scaling.factor = 4.0;
  RotaryConvention ntk = linear;
  ntk.name = "llama2 ntk x4";
  ntk.scaling.kind = RotaryScalingKind::ntk;
  RotaryConvention dynamic = linear;
  dynamic.name = "llama2 dynamic ntk x2 at 16384";
  dynamic.scaling.kind = RotaryScalingKind::dynamic_ntk;
  dynamic.scaling.factor = 2.0;
  dynamic.scaling.original_max_position = 4096;
  dynamic.scaling.sequence_length = 16384;
  RotaryConvention fitted;  // a ladder whose second half never rotates
  fitted.name = "fitted ladder";
  fitted.head_dim = 16;
  fitted.scaling.kind = RotaryScalingKind::fitted;
  for (int i = 0; i < 8; ++i) fitted.scaling.inv_freq.push_back(i < 4 ? 0.5 * std::pow(0.01, i / 3.0) : 0.0);
  for (const RotaryConvention& c : {linear, ntk, dynamic, fitted}) all.push_back(c);
  return all;
}

// Rows near 0, on both sides of anchors (multiples of 64), and just below
// 2^24 (the last anchor there is 2^24 - 64).
const std::vector<std::int64_t> positions = {0,   1,   2,        63,       64,       65,       127,      128,     191,
                                             192, 193, 16776916, 16776917, 16776959, 16776960, 16776961, 16777215};

TEST(AngleSumTier, settledEntriesAreMpfrsRoundingAndExactValue) {
  std::int64_t rotating = 0, settled = 0;
  for (const RotaryConvention& c : conventions()) {
    const RotaryDerived derived = rotary_derived(c);
    RotaryEntryEvaluator evaluator(c, std::nullopt);
    const std::vector<StepsFrequency> frequencies = rotary_tier_frequencies(c, std::nullopt);
    for (const FormatId format_id : {FormatId::float32, FormatId::float16, FormatId::bfloat16}) {
      const Format& format = format_of(format_id);
      // Exact values for the format with their rounding, or alone (as a
      // comparison asks for them), and the rounding alone.
      for (const auto& [exact, decide_rounding] :
           {std::pair{ExactValues::for_format, true}, std::pair{ExactValues::for_format, false},
            std::pair{ExactValues::none, true}}) {
        const double tolerance =
            exact == ExactValues::none ? std::numeric_limits<double>::infinity() : exact_tolerance(exact, format_id);
        AngleSumTier tier(frequencies, derived.attention_factor, narrow_format(format), tolerance, decide_rounding);
        RowDecisions row;
        for (const std::int64_t position : positions) {
          tier.settle(position, row);
          for (std::int64_t i = 0; i < derived.frequencies; ++i) {
            const auto k = static_cast<std::size_t>(i);
            const bool rotates = position != 0 && frequencies[k].f0 > 0.0;
            rotating += rotates;
            if (!row.cos_done[k]) continue;
            settled += rotates;
            RotaryEntryResult cos_mpfr, sin_mpfr;
            evaluator.evaluate(position, i, &format, true, cos_mpfr, sin_mpfr);
            const std::string where = c.name + " " + std::string(format.name) +
                                      (decide_rounding ? "" : " (exact alone)") + " p " + std::to_string(position) +
                                      " i " + std::to_string(i);
            ASSERT_TRUE(row.sin_done[k]) << where;
            if (decide_rounding) {
              ASSERT_EQ(row.cos_rounded[k], cos_mpfr.rounded) << where << " cos";
              ASSERT_EQ(row.sin_rounded[k], sin_mpfr.rounded) << where << " sin";
            }
            ASSERT_TRUE(within(row.cos_hi[k], cos_mpfr.exact, tolerance)) << where << " cos exact";
            ASSERT_TRUE(within(row.sin_hi[k], sin_mpfr.exact, tolerance)) << where << " sin exact";
          }
        }
      }
    }
  }
  // What it may leave: values within its bound (about 2^-52 relative) of a
  // rounding boundary, or below about 2^-56: next to none.
  EXPECT_GT(static_cast<double>(settled), 0.999 * static_cast<double>(rotating))
      << settled << " of " << rotating << " rotating entries settled";
}

// The bound of one entry (angle_sum_entry) against exact arithmetic: the
// exact factors are put at the ends of the inputs' errors (A = a +- ea and so
// on, |Cc| and |S| at most 1), X = A Cc - B S and Y = B Cc + A S computed
// exactly (2400 bits hold every product and sum of these doubles), and the
// largest |v - X| / bound returned. At most 1: the bound holds.
struct OneEntry {
  const char* why;
  double a1, a2, b1, b2, ea, c1, c2, s1, s2, eo;
  double reaches;  // the share of the bound the case is built to reach
};

class Exact {
 public:
  Exact() { mpfr_init2(x_, 2400); }
  ~Exact() { mpfr_clear(x_); }
  Exact(const Exact&) = delete;
  Exact& operator=(const Exact&) = delete;
  mpfr_t x_;
};

// x = a c + sign b s for double-word-plus-error values given as sums of doubles.
void exact_sum_of_products(mpfr_t out, const std::vector<double>& a, const std::vector<double>& c,
                           const std::vector<double>& b, const std::vector<double>& s, double sign) {
  Exact left, right, term;
  mpfr_set_zero(out, 1);
  mpfr_set_zero(left.x_, 1);
  mpfr_set_zero(right.x_, 1);
  for (double x : a) mpfr_add_d(left.x_, left.x_, x, MPFR_RNDN);
  for (double x : c) mpfr_add_d(right.x_, right.x_, x, MPFR_RNDN);
  mpfr_mul(out, left.x_, right.x_, MPFR_RNDN);
  mpfr_set_zero(left.x_, 1);
  mpfr_set_zero(right.x_, 1);
  for (double x : b) mpfr_add_d(left.x_, left.x_, x, MPFR_RNDN);
  for (double x : s) mpfr_add_d(right.x_, right.x_, x, MPFR_RNDN);
  mpfr_mul(term.x_, left.x_, right.x_, MPFR_RNDN);
  if (sign < 0) mpfr_neg(term.x_, term.x_, MPFR_RNDN);
  mpfr_add(out, out, term.x_, MPFR_RNDN);
}

double ratio(mpfr_t exact, double value, double bound) {
  Exact d;
  mpfr_sub_d(d.x_, exact, value, MPFR_RNDN);
  mpfr_abs(d.x_, d.x_, MPFR_RNDN);
  mpfr_div_d(d.x_, d.x_, bound, MPFR_RNDU);
  return mpfr_get_d(d.x_, MPFR_RNDU);
}

double worst_ratio(const OneEntry& e) {
  const double ma = std::max(std::fabs(e.a1), std::fabs(e.b1)) * (1.0 + 0x1p-50);
  const AngleSum r = angle_sum_entry(e.a1, e.a2, e.b1, e.b2, e.ea, ma, e.c1, e.c2, e.s1, e.s2, e.eo);
  double worst = 0.0;
  for (int signs = 0; signs < 16; ++signs) {
    const auto sign = [&](int bit) { return (signs >> bit & 1) ? -1.0 : 1.0; };
    const std::vector<double> a = {e.a1, e.a2, sign(0) * e.ea}, b = {e.b1, e.b2, sign(1) * e.ea};
    const std::vector<double> c = {e.c1, e.c2, sign(2) * e.eo}, s = {e.s1, e.s2, sign(3) * e.eo};
    // The exact offset is a cos and a sin: at most 1 in magnitude.
    if (std::fabs(e.c1 + sign(2) * e.eo) > 1.0 || std::fabs(e.s1 + sign(3) * e.eo) > 1.0) continue;
    Exact x, y;
    exact_sum_of_products(x.x_, a, c, b, s, -1.0);
    exact_sum_of_products(y.x_, b, c, a, s, 1.0);
    worst = std::max({worst, ratio(x.x_, r.cos_value, r.cos_error), ratio(y.x_, r.sin_value, r.sin_error)});
  }
  return worst;
}

// Half an ULP of the binade [0.5, 1), a little less: a sum landing that far
// above a double there rounds down by almost u.
constexpr double just_below_half_ulp = 0x1p-54 * (1.0 - 0x1p-10);

// Each case nearly reaches one part of the bound, so that a part dropped from
// it (or made smaller than the derivation says) fails the case. In the first
// two, d = RN(P1 - Q1) and v = RN(d + t) each round down by almost half an
// ULP of 0.5 + 2^-53 (u |d| and u |v| are each almost that).
const OneEntry cases[] = {
    {"cos: both roundings of the sum (u |v| + u |d|) at almost half an ULP each", 1.0, 0.0, just_below_half_ulp, 0.0,
     0.0, 0.5 + 0x1p-53, just_below_half_ulp, -1.0, 0.0, 0.0, 0.99},
    {"sin: both roundings of the sum at almost half an ULP each", just_below_half_ulp, 0.0, 1.0, 0.0, 0.0,
     0.5 + 0x1p-53, just_below_half_ulp, 1.0, 0.0, 0.0, 0.99},
    {"the offset's error times the anchor's magnitude, twice (2 Ma eo)", 0.7, 0.0, 0.7, 0.0, 0.0, 1.0 - 0x1p-20, 0.0,
     0x1p-20, 0.0, 0x1p-30, 0.99},
    {"the anchor's error, cos and sin of the offset both near 0.7 (|Cc| + |S| up to 1.41 of ea)", 0.6, 0.0, 0.8, 0.0,
     0x1p-30, 0.70710678118654746, 0.0, 0.70710678118654746, 0.0, 0.0, 0.70},
};

TEST(AngleSumTier, theKernelsBoundHoldsAndIsReachedPartByPart) {
  for (const OneEntry& e : cases) {
    const double r = worst_ratio(e);
    EXPECT_LE(r, 1.0) << e.why << ": the error exceeds the bound";
    EXPECT_GE(r, e.reaches) << e.why << ": the case no longer reaches its share of the bound";
  }
}

// Random double-words with random errors: the bound holds everywhere.
TEST(AngleSumTier, theKernelsBoundHoldsOnRandomEntries) {
  std::uint64_t state = 0x243f6a8885a308d3ULL;  // fixed seed: the same entries every run
  const auto next = [&] {
    state = state * 6364136223846793005ULL + 1442695040888963407ULL;
    return static_cast<double>(state >> 11) * 0x1p-53;  // [0, 1)
  };
  double worst = 0.0;
  for (int n = 0; n < 4000; ++n) {
    const double angle = 2.0 * std::numbers::pi * next(), offset_angle = 0.1 * next();
    const double factor = 1.0 + next();
    OneEntry e{"random",
               factor * std::cos(angle),
               0.0,
               factor * std::sin(angle),
               0.0,
               0.0,
               std::cos(offset_angle),
               0.0,
               std::sin(offset_angle),
               0.0,
               0.0,
               0.0};
    e.a2 = (next() - 0.5) * 0x1p-53 * std::fabs(e.a1);
    e.b2 = (next() - 0.5) * 0x1p-53 * std::fabs(e.b1);
    e.c2 = (next() - 0.5) * 0x1p-53 * std::fabs(e.c1);
    e.s2 = (next() - 0.5) * 0x1p-53 * std::fabs(e.s1);
    e.ea = n % 2 ? 0.0 : std::ldexp(next(), -100 + static_cast<int>(60 * next()));
    e.eo = n % 3 ? 0.0 : std::ldexp(next(), -100 + static_cast<int>(60 * next()));
    if (std::fabs(e.c1) + e.eo > 1.0 || std::fabs(e.s1) + e.eo > 1.0) continue;
    worst = std::max(worst, worst_ratio(e));
  }
  EXPECT_LE(worst, 1.0);
}

// The row kernels (blocks of eight and a tail, flagged_loop.hpp) against the
// entry they are made of, one entry at a time, for every count up to a few
// blocks past a row of 64: every value and rounding bit for bit, every flag,
// and the count of flags set each returns.
TEST(AngleSumTier, theRowKernelsAreTheirEntryAtEveryCount) {
  std::mt19937_64 random(0x13198a2e03707344ULL);  // fixed seed: the same entries every run
  std::uniform_real_distribution<double> unit(0.0, 1.0);
  const auto next = [&] { return unit(random); };
  const std::size_t most = 83;
  std::vector<double> a1(most), a2(most), b1(most), b2(most), ea(most), ma(most), c1(most), c2(most), s1(most),
      s2(most), eo(most);
  for (std::size_t i = 0; i < most; ++i) {
    // Some angles near a zero of cos or sin, so that both flags occur.
    const double angle = i % 5 == 0 ? std::numbers::pi / 2 + 0x1p-30 * next() : 2.0 * std::numbers::pi * next();
    const double offset_angle = 0.1 * next();
    a1[i] = std::cos(angle);
    b1[i] = std::sin(angle);
    a2[i] = (next() - 0.5) * 0x1p-53 * std::fabs(a1[i]);
    b2[i] = (next() - 0.5) * 0x1p-53 * std::fabs(b1[i]);
    c1[i] = std::cos(offset_angle);
    s1[i] = std::sin(offset_angle);
    c2[i] = (next() - 0.5) * 0x1p-53 * std::fabs(c1[i]);
    s2[i] = (next() - 0.5) * 0x1p-53 * std::fabs(s1[i]);
    ea[i] = i % 7 == 0 ? 0x1p-40 : std::ldexp(next(), -110);
    eo[i] = std::ldexp(next(), -110);
    ma[i] = std::max(std::fabs(a1[i]), std::fabs(b1[i])) * (1.0 + 0x1p-50);
  }
  const AngleEnclosures anchor{a1.data(), a2.data(), b1.data(), b2.data(), ea.data()};
  const AngleEnclosures offset{c1.data(), c2.data(), s1.data(), s2.data(), eo.data()};
  const NarrowFormat format = narrow_format(format_of(FormatId::float32));
  const double tolerance = exact_tolerance(ExactValues::for_format, FormatId::float32);
  std::size_t done_seen = 0, refused_seen = 0;
  for (std::size_t count = 0; count <= most; ++count) {
    // One more entry than count, to see that nothing past count is written.
    std::vector<double> cos_value(count + 1, -7.0), sin_value(count + 1, -7.0), cos_rounded(count + 1, -7.0),
        sin_rounded(count + 1, -7.0);
    std::vector<unsigned char> done(count + 1, 9);
    const std::size_t settled =
        angle_sum_entries(count, anchor, ma.data(), offset, format, tolerance,
                          {cos_value.data(), sin_value.data(), cos_rounded.data(), sin_rounded.data(), done.data()});
    EXPECT_EQ(settled, static_cast<std::size_t>(std::count(done.begin(), done.begin() + count, 1))) << count;
    std::vector<double> exact_cos(count + 1, -7.0), exact_sin(count + 1, -7.0);
    std::vector<unsigned char> exact_done(count + 1, 9);
    const std::size_t exact_settled =
        angle_sum_exact_entries(count, anchor, ma.data(), offset, tolerance,
                                {exact_cos.data(), exact_sin.data(), nullptr, nullptr, exact_done.data()});
    EXPECT_EQ(exact_settled, static_cast<std::size_t>(std::count(exact_done.begin(), exact_done.begin() + count, 1)))
        << count;
    for (std::size_t i = 0; i < count; ++i) {
      const AngleSum e = angle_sum_entry(a1[i], a2[i], b1[i], b2[i], ea[i], ma[i], c1[i], c2[i], s1[i], s2[i], eo[i]);
      const NarrowRounding c = narrow_rounding(e.cos_value, e.cos_error, format);
      const NarrowRounding s = narrow_rounding(e.sin_value, e.sin_error, format);
      const bool within_both =
          within_relative(e.cos_value, e.cos_error, tolerance) && within_relative(e.sin_value, e.sin_error, tolerance);
      const std::string at = "count " + std::to_string(count) + ", entry " + std::to_string(i);
      EXPECT_EQ(std::bit_cast<std::uint64_t>(cos_value[i]), std::bit_cast<std::uint64_t>(e.cos_value)) << at;
      EXPECT_EQ(std::bit_cast<std::uint64_t>(sin_value[i]), std::bit_cast<std::uint64_t>(e.sin_value)) << at;
      EXPECT_EQ(std::bit_cast<std::uint64_t>(cos_rounded[i]), std::bit_cast<std::uint64_t>(c.value)) << at;
      EXPECT_EQ(std::bit_cast<std::uint64_t>(sin_rounded[i]), std::bit_cast<std::uint64_t>(s.value)) << at;
      EXPECT_EQ(done[i], (c.decided && s.decided && within_both) ? 1 : 0) << at;
      EXPECT_EQ(std::bit_cast<std::uint64_t>(exact_cos[i]), std::bit_cast<std::uint64_t>(e.cos_value)) << at;
      EXPECT_EQ(std::bit_cast<std::uint64_t>(exact_sin[i]), std::bit_cast<std::uint64_t>(e.sin_value)) << at;
      EXPECT_EQ(exact_done[i], within_both ? 1 : 0) << at;
      (within_both ? done_seen : refused_seen) += 1;
    }
    EXPECT_EQ(cos_value[count], -7.0);
    EXPECT_EQ(sin_rounded[count], -7.0);
    EXPECT_EQ(done[count], 9);
    EXPECT_EQ(exact_sin[count], -7.0);
    EXPECT_EQ(exact_done[count], 9);
  }
  EXPECT_GT(done_seen, 0U);
  EXPECT_GT(refused_seen, 0U);
}

}  // namespace
}  // namespace pecheck::reference
