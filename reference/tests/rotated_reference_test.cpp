// The rotated-output oracle (rotated_reference.hpp) against an independent
// evaluation: the rotation written straight from its formula in
// Boost.Multiprecision at about 1330 bits (rotary_independent.hpp's
// frequency rule) and rounded by independent_oracle.hpp's own rounding, for
// every preset and every format, at positions up to 2^24, on random inputs
// of the format and on pairs built to cancel (x_a cos t ~ x_b sin t), where
// the first step cannot decide and MPFR must.
#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <cstdint>
#include <map>
#include <random>

#include "pecheck/reference/rotary_reference.hpp"
#include "pecheck/reference/rotated_reference.hpp"
#include "pecheck/testing/presets.hpp"
#include "rotary_independent.hpp"

namespace pecheck {
namespace {

using testing::HighReal;

const std::int64_t sampled_positions[] = {0, 1, 2, 257, 2049, 8193, 131071, 1000003, 12345678, 16777215};
const FormatId all_formats[] = {FormatId::float64, FormatId::float32, FormatId::float16, FormatId::bfloat16};

// A random finite value of the format with a magnitude in [2^-4, 2^4): the
// inputs queries and keys hold.
double random_value(std::mt19937_64& random, const Format& format) {
  std::uniform_real_distribution<double> exponent(-4.0, 4.0);
  std::uniform_int_distribution<int> sign(0, 1);
  const double v = std::exp2(exponent(random)) * (sign(random) ? -1.0 : 1.0);
  return round_to_format(v, format);
}

HighReal exact_inv_freq(const RotaryConvention& c, std::int64_t i) { return testing::cached_independent_inv_freq(c, i); }

// A (x_a cos t - x_b sin t) and A (x_a sin t + x_b cos t).
std::pair<HighReal, HighReal> independent_rotation(const HighReal& theta, double factor, double xa, double xb) {
  const HighReal c = cos(theta);
  const HighReal s = sin(theta);
  const HighReal a(factor);
  return {a * (HighReal(xa) * c - HighReal(xb) * s), a * (HighReal(xa) * s + HighReal(xb) * c)};
}

void expect_pair(const std::pair<HighReal, HighReal>& exact, const reference::RotatedPair& got, const Format& format,
                 const std::string& where) {
  const double a = testing::round_independently(exact.first, format);
  const double b = testing::round_independently(exact.second, format);
  // An exact zero has no sign; the oracle's +0 is asked for only there.
  EXPECT_EQ(got.first, a) << where << " out_a: " << testing::rounding_failure(exact.first, got.first, format);
  EXPECT_EQ(got.second, b) << where << " out_b: " << testing::rounding_failure(exact.second, got.second, format);
}

std::vector<std::int64_t> sampled_frequencies(const RotaryConvention& c) {
  const std::int64_t n = rotary_derived(c).frequencies;
  std::vector<std::int64_t> out{0, 1, n / 3, n / 2, n - 1};
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}


TEST(RotatedReference, everyPresetRotatesCorrectlyRoundedInEveryFormat) {
  testing::use_decimal_digits(400);
  std::mt19937_64 random(20261127);
  for (const RotaryConvention& c : testing::every_rotary_rule()) {
    const double factor = rotary_derived(c).attention_factor;
    for (const FormatId format_id : all_formats) {
      const Format& format = format_of(format_id);
      reference::RotatedOracle oracle(c, format_id);
      for (const std::int64_t p : sampled_positions) {
        for (const std::int64_t i : sampled_frequencies(c)) {
          const double xa = random_value(random, format);
          const double xb = random_value(random, format);
          const HighReal theta = exact_inv_freq(c, i) * p;
          expect_pair(independent_rotation(theta, factor, xa, xb), oracle.rotate(p, i, xa, xb), format,
                      c.name + " " + std::string(format.name) + " p " + std::to_string(p) + " i " + std::to_string(i));
        }
      }
    }
  }
}

// x_a / x_b a continued-fraction convergent of tan t with both below 2^q (q
// the format's precision): |x_a cos t - x_b sin t| < 1 / x_b while each term
// is near x_a, so out_a keeps about 2^-2q of their size. In float64 that is
// 2^-106, beyond the first step's 2^-100: MPFR must decide.
std::pair<double, double> cancelling_pair(const HighReal& theta, const Format& format) {
  HighReal x = tan(theta);
  const bool negative = x < 0;
  x = abs(x);
  const double limit = std::ldexp(1.0, format.precision);
  // h/k convergents: h_n = a_n h_(n-1) + h_(n-2).
  HighReal h_prev(1), h_prev2(0), k_prev(0), k_prev2(1);
  double best_h = 1.0, best_k = 1.0;
  for (int step = 0; step < 80; ++step) {
    const HighReal a = floor(x);
    const HighReal h = a * h_prev + h_prev2;
    const HighReal k = a * k_prev + k_prev2;
    if (h >= limit || k >= limit) break;
    if (h > 0 && k > 0) best_h = static_cast<double>(h), best_k = static_cast<double>(k);
    h_prev2 = h_prev, h_prev = h, k_prev2 = k_prev, k_prev = k;
    const HighReal fraction = x - a;
    if (fraction == 0) break;
    x = 1 / fraction;
  }
  // Whole numbers below 2^q are values of the format.
  return {negative ? -best_h : best_h, best_k};
}

TEST(RotatedReference, cancellingPairsAreDecidedByEscalation) {
  testing::use_decimal_digits(400);
  std::int64_t escalated = 0;
  for (const char* name : {"llama2", "llama3.1", "yarn", "phi3-longrope", "gpt-j"}) {
    const RotaryConvention c = *find_rotary_preset(name);
    const double factor = rotary_derived(c).attention_factor;
    for (const FormatId format_id : all_formats) {
      const Format& format = format_of(format_id);
      reference::RotatedOracle oracle(c, format_id);
      for (const std::int64_t p : {std::int64_t{3}, std::int64_t{40000}, std::int64_t{16777215}}) {
        for (const std::int64_t i : sampled_frequencies(c)) {
          const HighReal theta = exact_inv_freq(c, i) * p;
          const auto [xa, xb] = cancelling_pair(theta, format);
          expect_pair(independent_rotation(theta, factor, xa, xb), oracle.rotate(p, i, xa, xb), format,
                      c.name + " cancelling " + std::string(format.name) + " p " + std::to_string(p) + " i " +
                          std::to_string(i) + " x " + std::to_string(xa) + " " + std::to_string(xb));
        }
      }
      escalated += oracle.pairs_escalated();
    }
  }
  RecordProperty("pairs_escalated", std::to_string(escalated));
  EXPECT_GT(escalated, 0) << "no cancelling pair reached MPFR: the hard cases are not hard";
}

// The model's binary angle: RN_angle(RN_position(p) inv_r), inv_r the model's
// frequency (rotary_model_inv_freq, tested with the rotary oracle), and the
// factor rounded to the angle's format.
TEST(RotatedReference, theModelAngleRotatesCorrectlyRounded) {
  testing::use_decimal_digits(400);
  std::mt19937_64 random(7);
  const ComputationModel model = *find_computation_model("hf-float32");
  const Format& angle_format = format_of(model.angle);
  for (const char* name : {"llama3", "yarn", "gpt-neox"}) {
    const RotaryConvention c = *find_rotary_preset(name);
    const double factor = round_to_format(rotary_derived(c).attention_factor, angle_format);
    for (const FormatId format_id : all_formats) {
      const Format& format = format_of(format_id);
      reference::RotatedOracle oracle(c, format_id, model);
      for (const std::int64_t p : sampled_positions) {
        for (const std::int64_t i : sampled_frequencies(c)) {
          const double inv = reference::rotary_model_inv_freq(c, i, model);
          const double pr = round_to_format(static_cast<double>(p), format_of(model.position));
          const double angle = testing::round_independently(HighReal(pr) * HighReal(inv), angle_format);
          ASSERT_EQ(oracle.angle(p, i), angle) << name << " p " << p << " i " << i;
          const double xa = random_value(random, format);
          const double xb = random_value(random, format);
          expect_pair(independent_rotation(HighReal(angle), factor, xa, xb), oracle.rotate(p, i, xa, xb), format,
                      std::string(name) + " model " + std::string(format.name) + " p " + std::to_string(p));
          // The cache entries of the same angle.
          const reference::RotatedPair cs = oracle.cos_sin(p, i, format_id);
          EXPECT_EQ(cs.first, testing::round_independently(HighReal(factor) * cos(HighReal(angle)), format));
          EXPECT_EQ(cs.second, testing::round_independently(HighReal(factor) * sin(HighReal(angle)), format));
        }
      }
    }
  }
}

TEST(RotatedReference, aZeroAngleScalesTheInputAndZeroInputsGivePlusZero) {
  const RotaryConvention c = *find_rotary_preset("yarn");
  reference::RotatedOracle oracle(c, FormatId::bfloat16);
  const double factor = rotary_derived(c).attention_factor;
  const reference::RotatedPair at_zero = oracle.rotate(0, 3, -0.0, 1.5);
  EXPECT_TRUE(std::signbit(at_zero.first));
  EXPECT_EQ(at_zero.second, round_to_format(1.5 * factor, format_of(FormatId::bfloat16)));
  const reference::RotatedPair zeros = oracle.rotate(77, 3, 0.0, -0.0);
  EXPECT_EQ(std::bit_cast<std::uint64_t>(zeros.first), 0U);
  EXPECT_EQ(std::bit_cast<std::uint64_t>(zeros.second), 0U);
}

TEST(RotatedReference, aFrequencyOutsideTheWidthIsRefused) {
  reference::RotatedOracle oracle(*find_rotary_preset("llama2"), FormatId::float32);
  EXPECT_THROW(oracle.rotate(1, 64, 1.0, 1.0), ConventionError);
  EXPECT_THROW(oracle.rotate(-1, 0, 1.0, 1.0), ConventionError);
}

}  // namespace
}  // namespace pecheck
