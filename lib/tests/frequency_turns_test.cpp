// The frequencies in turns and their three-way split, against an independent
// 113-bit evaluation of w / (2 pi) (about 2^-108.8 accurate, see quad_reference.hpp).
#include "frequency_turns.hpp"

#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <cstdint>
#include <cstdio>

#include "quad_reference.hpp"

namespace pecheck {
namespace {

using testing::Quad;

int significant_bits(double x) {
  if (x == 0) return 0;
  const std::uint64_t significand = (std::bit_cast<std::uint64_t>(x) & ((std::uint64_t{1} << 52) - 1)) |
                                    (std::uint64_t{1} << 52);
  return 53 - std::countr_zero(significand);
}

// Widths covering tiny, odd, typical and the largest supported.
constexpr std::int64_t widths[] = {1, 2, 3, 4, 5, 6, 64, 511, 512, 1024, 16384};

TEST(FrequencyInTurns, isWithin2ToThe100OfTheExactFrequencyForEveryPreset) {
  for (const Convention& preset : presets()) {
    double worst = 0.0;
    std::int64_t worst_d = 0;
    std::int64_t worst_i = 0;
    for (const std::int64_t d : widths) {
      if (d < preset.min_dim || (d % 2 == 1 && preset.odd_dim == OddDimPolicy::reject)) continue;
      for (std::int64_t i = 0; i < frequency_count(preset, d); ++i) {
        const FrequencyTerm term = frequency_term(preset, d, i);
        const DoubleDouble f = frequency_in_turns(preset, term);
        const Quad exact = testing::quad_frequency(term) / (2 * testing::quad_pi());
        const double error = static_cast<double>(fabsq((static_cast<Quad>(f.hi) + f.lo) - exact) / exact);
        if (error > worst) {
          worst = error;
          worst_d = d;
          worst_i = i;
        }
      }
    }
    std::printf("%-14s frequency in turns: max relative error 2^%.2f (d = %lld, i = %lld)\n", preset.name.c_str(),
                worst == 0 ? -200.0 : std::log2(worst), static_cast<long long>(worst_d),
                static_cast<long long>(worst_i));
    // The design needs 2^-100 (the angle bound in sincos_turns.cpp); the
    // measurement itself is good to about 2^-108.
    EXPECT_LE(worst, std::ldexp(1.0, -100)) << preset.name;
  }
}

TEST(SplitForPositions, givesTwo29BitPartsAndARestThatSumToTheFrequency) {
  const Convention& vaswani = presets().front();
  for (const std::int64_t d : {7, 512, 16384}) {
    for (std::int64_t i = 0; i < frequency_count(vaswani, d); ++i) {
      const DoubleDouble f = frequency_in_turns(vaswani, frequency_term(vaswani, d, i));
      const TurnsSplit split = split_for_positions(f);
      ASSERT_LE(significant_bits(split.f1), 29);
      ASSERT_LE(significant_bits(split.f2), 29);
      const Quad whole = static_cast<Quad>(f.hi) + f.lo;
      const Quad parts = static_cast<Quad>(split.f1) + split.f2 + split.f3;
      EXPECT_LE(static_cast<double>(fabsq(parts - whole) / whole), std::ldexp(1.0, -109)) << d << " " << i;
      EXPECT_LE(std::fabs(split.f2), std::ldexp(f.hi, -28)) << d << " " << i;
      EXPECT_LE(std::fabs(split.f3), std::ldexp(f.hi, -55)) << d << " " << i;
      // The point of the split: p f1 and p f2 are exact for every p < 2^24.
      const double p = 16777215.0;
      EXPECT_EQ(static_cast<Quad>(p * split.f1), static_cast<Quad>(p) * split.f1);
      EXPECT_EQ(static_cast<Quad>(p * split.f2), static_cast<Quad>(p) * split.f2);
    }
  }
}

TEST(FrequencyInTurns, rejectsRulesWithoutAFinitePositiveFrequency) {
  Convention bad = presets().front();
  bad.frequency.base = 0.0;
  EXPECT_THROW(frequency_in_turns(bad, frequency_term(bad, 8, 1)), ConventionError);
  bad.frequency.base = -10000.0;
  EXPECT_THROW(frequency_in_turns(bad, frequency_term(bad, 8, 1)), ConventionError);
  Convention timescale = presets()[2];
  timescale.frequency.min_timescale = 0.0;
  EXPECT_THROW(frequency_in_turns(timescale, frequency_term(timescale, 8, 1)), ConventionError);
  timescale.frequency.min_timescale = 1.0;
  timescale.frequency.max_timescale = 1e300;  // ln ratio 690: past e^600
  EXPECT_THROW(frequency_in_turns(timescale, frequency_term(timescale, 8, 1)), ConventionError);
}

}  // namespace
}  // namespace pecheck
