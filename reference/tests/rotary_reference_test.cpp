// The rotary oracle against an independent evaluation: every preset
// correctly rounded in every format at sampled positions up to 2^24, the
// entries nearest rounding boundaries, and the frequency rule's error bound.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

#include "pecheck/reference/rotary_reference.hpp"
#include "rotary_arithmetic.hpp"
#include "rotary_independent.hpp"

namespace pecheck {
namespace {

using testing::HighReal;

// Positions where formats and caches change behaviour: 0, bfloat16's and
// float16's last exact integers and their neighbours, powers of two, the
// original lengths of the scaled presets, and the top of float32's exact range.
const std::int64_t sampled_positions[] = {0,     1,      2,       255,     257,      2049,     4095,    8193,
                                          32767, 131071, 1000003, 4194311, 12345678, 16777214, 16777215};

void expect_correctly_rounded(const RotaryConvention& c, std::int64_t position, FormatId format_id) {
  const RotaryCacheRequest request{position, 1, format_id};
  const reference::RotaryReferenceCache cache = reference::rotary_reference_cache(c, request, std::nullopt, 1);
  const Format& format = format_of(format_id);
  for (std::int64_t col = 0; col < rotary_columns(c); ++col) {
    const std::int64_t i = rotary_column_frequency(c, col);
    for (const bool cosine : {true, false}) {
      const HighReal x = testing::independent_rotary_value(c, position, i, cosine);
      const double expected = testing::round_independently(x, format);
      const double got = cosine ? cache.rounded.cos.at(0, col) : cache.rounded.sin.at(0, col);
      ASSERT_EQ(std::bit_cast<std::uint64_t>(got), std::bit_cast<std::uint64_t>(expected))
          << c.name << " " << format.name << " position " << position << " column " << col << (cosine ? " cos" : " sin")
          << ": " << testing::rounding_failure(x, got, format);
      const DoubleDouble exact = (cosine ? cache.exact_cos : cache.exact_sin)[static_cast<std::size_t>(col)];
      const HighReal pair = HighReal(exact.hi) + HighReal(exact.lo);
      ASSERT_LE(abs(pair - x), abs(x) * HighReal(0x1.0p-100)) << c.name << " position " << position;
    }
  }
}

TEST(RotaryReference, everyPresetIsCorrectlyRoundedAtSampledPositionsInEveryFormat) {
  for (const RotaryConvention& c : rotary_presets()) {
    for (const std::int64_t position : sampled_positions) {
      for (const FormatId format : {FormatId::float64, FormatId::float32, FormatId::float16, FormatId::bfloat16}) {
        expect_correctly_rounded(c, position, format);
      }
    }
  }
}

// ggml's YaRN with a fractional ext_factor (rope_yarn's ramp_mix): the
// ggml fixture with ext_factor 0.5 and 0.25, correctly rounded in every format.
TEST(RotaryReference, ggmlYarnWithAFractionalExtFactorIsCorrectlyRounded) {
  RotaryConvention c = *find_rotary_preset("yarn");
  for (const double mix : {0.5, 0.25}) {
    c.scaling.extrapolation_mix = mix;
    c.name = "yarn with ext_factor " + std::to_string(mix);
    for (const std::int64_t position : sampled_positions) {
      for (const FormatId format : {FormatId::float64, FormatId::float32, FormatId::float16, FormatId::bfloat16}) {
        expect_correctly_rounded(c, position, format);
      }
    }
  }
}

// A rule no preset has, as validate reports one (RotaryScalingKind::fitted):
// a geometric ladder between two set frequencies whose second half never
// rotates (cos exactly 1, sin exactly 0 in every format).
TEST(RotaryReference, aFittedLadderWithStillPairsIsCorrectlyRounded) {
  RotaryConvention c;
  c.name = "custom rule";
  c.head_dim = 16;
  c.scaling.kind = RotaryScalingKind::fitted;
  for (int i = 0; i < 8; ++i) c.scaling.inv_freq.push_back(i < 4 ? 0.5 * std::pow(0.01, i / 3.0) : 0.0);
  for (const std::int64_t position : sampled_positions) {
    for (const FormatId format : {FormatId::float64, FormatId::float32, FormatId::bfloat16}) {
      expect_correctly_rounded(c, position, format);
    }
  }
}

// The entries of a preset closest to a rounding boundary (a midpoint between
// two values of the format) among 2 x 2048 rows at both ends of [0, 2^24),
// found from the fast path's float64 values; returns (distance in ULPs of
// the format, position, frequency, cosine).
struct HardCase {
  double distance;
  std::int64_t position;
  std::int64_t frequency;
  bool cosine;
};

std::vector<HardCase> hardest_cases(const RotaryConvention& c, const Format& format, std::size_t count) {
  std::vector<HardCase> cases;
  for (const std::int64_t first : {std::int64_t{1}, (std::int64_t{1} << 24) - 2048}) {
    const RotaryCache cache = fast_rotary_cache(c, {first, 2048, FormatId::float64});
    for (std::int64_t r = 0; r < 2048; ++r) {
      for (std::int64_t i = 0; i < rotary_derived(c).frequencies; ++i) {
        const std::int64_t col = c.layout == RotaryLayout::interleaved ? 2 * i : i;
        for (const bool cosine : {true, false}) {
          const double v = cosine ? cache.cos.at(r, col) : cache.sin.at(r, col);
          const double rounded = round_to_format(v, format);
          const double ulp = testing::format_next_up(std::fabs(rounded), format) - std::fabs(rounded);
          if (!(ulp > 0.0) || v == 0.0) continue;
          const double distance = std::fabs(std::fabs(v - rounded) - ulp / 2) / ulp;
          cases.push_back({distance, first + r, i, cosine});
        }
      }
    }
  }
  std::partial_sort(cases.begin(), cases.begin() + static_cast<std::ptrdiff_t>(count), cases.end(),
                    [](const HardCase& a, const HardCase& b) { return a.distance < b.distance; });
  cases.resize(count);
  return cases;
}

TEST(RotaryReference, entriesNearestRoundingBoundariesAreCorrectlyRounded) {
  for (const char* name : {"llama3.1", "yarn", "phi3-longrope"}) {
    const RotaryConvention c = *find_rotary_preset(name);
    for (const FormatId format_id : {FormatId::float32, FormatId::float16, FormatId::bfloat16}) {
      const Format& format = format_of(format_id);
      const std::vector<HardCase> cases = hardest_cases(c, format, 12);
      // About 0.5 million entries: the closest lies within ~1e-6 ULP of a midpoint.
      RecordProperty(std::string(name) + "_" + std::string(format.name) + "_closest_ulp",
                     std::to_string(cases.front().distance));
      EXPECT_LT(cases.front().distance, 1e-4) << name << " " << format.name;
      for (const HardCase& hard : cases) {
        const HighReal x = testing::independent_rotary_value(c, hard.position, hard.frequency, hard.cosine);
        const double got =
            reference::rotary_correctly_rounded(c, hard.position, hard.frequency, hard.cosine, format_id, std::nullopt);
        EXPECT_EQ(got, testing::round_independently(x, format))
            << name << " " << format.name << " position " << hard.position << " frequency " << hard.frequency << " at "
            << hard.distance << " ULP from a midpoint: " << testing::rounding_failure(x, got, format);
      }
    }
  }
}

// rotary_arithmetic.cpp derives |computed - exact| <= 2^(16 - P) |exact| for
// the rule evaluated with every operation rounded at P bits.
TEST(RotaryFrequency, theRuleAtPBitsIsWithinItsDerivedBound) {
  double worst = 0.0;
  for (const RotaryConvention& c : rotary_presets()) {
    for (std::int64_t i = 0; i < rotary_derived(c).frequencies; ++i) {
      const HighReal exact = testing::independent_inv_freq(c, i);
      reference::NearestArithmetic arithmetic(64);
      const reference::Real at_64 = rotary_inv_freq(c, rotary_derived(c), i, arithmetic);
      if (exact == 0) {
        // A pair that never rotates (the proportional form's tail): exactly 0, no relative error to bound.
        EXPECT_EQ(HighReal(at_64), 0) << c.name << " frequency " << i;
        continue;
      }
      const HighReal relative = abs(HighReal(at_64) - exact) / exact;
      const double scaled = static_cast<double>(relative * HighReal(0x1.0p64));
      worst = std::max(worst, scaled);
      EXPECT_LE(scaled, 0x1.0p16) << c.name << " frequency " << i;
    }
  }
  RecordProperty("worst_relative_error_in_units_of_2^-64", std::to_string(worst));
}

}  // namespace
}  // namespace pecheck
