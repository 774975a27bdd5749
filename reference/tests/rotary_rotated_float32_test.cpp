// The float32 rotary cache, whose rows are anchor rows rotated by a stored
// step (lib/src/fast/rotary_rotated_fill.hpp), against the oracle's exact
// values, entry by entry, within the bound rotary_fast.cpp derives (step 4):
//   0.5 + 2^-12.2 (1 + 2^-35) ULP for a rotated value (|sin cos| >= 2^-14),
//   0.5 + 2^-28 + 2^-49.8 / rho ULP for a value the kernel recomputes (step 2),
// with rho, the distance in turns to the nearest zero, at least |T| / (2 pi)
// (|sin 2 pi rho| <= 2 pi rho), i.e. 2^-49.8 / rho <= 2^-47.15 / |T|.
// The oracle's exact values are good to 2^-100 relative, 2^-76 ULP: inside
// the rounding up of both bounds.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <random>
#include <utility>
#include <vector>

#include "pecheck/reference/rotary_reference.hpp"
#include "pecheck/ulp.hpp"

namespace pecheck {
namespace {

double derived_bound(double exact_unscaled) {
  const double rotated = 0.5 + std::exp2(-12.2) * (1.0 + 0x1p-35);
  const double recomputed = 0.5 + 0x1p-28 + std::exp2(-47.15) / std::fabs(exact_unscaled);
  return std::max(rotated, recomputed);
}

// Every float32 entry of rows [first, first + rows) within derived_bound;
// returns the largest error in ULP.
double check_rows(const RotaryConvention& c, std::int64_t first, std::int64_t rows) {
  const RotaryCacheRequest request{first, rows, FormatId::float32};
  const RotaryCache fast = fast_rotary_cache(c, request);
  const reference::RotaryReferenceCache oracle = reference::rotary_reference_cache(c, request, std::nullopt, 1);
  const Format& float32 = format_of(FormatId::float32);
  const double a = rotary_derived(c).attention_factor;
  double worst = 0.0;
  for (std::int64_t r = 0; r < rows; ++r) {
    for (std::int64_t col = 0; col < fast.cos.cols; ++col) {
      const auto k = static_cast<std::size_t>(r * fast.cos.cols + col);
      for (const bool cosine : {true, false}) {
        const double got = cosine ? fast.cos.at(r, col) : fast.sin.at(r, col);
        const DoubleDouble exact = cosine ? oracle.exact_cos[k] : oracle.exact_sin[k];
        const std::string where = c.name + " position " + std::to_string(first + r) + " column " + std::to_string(col) +
                                  (cosine ? " cos" : " sin");
        if (exact.hi == 0.0) {
          EXPECT_EQ(got, 0.0) << where;  // sin at position 0, computed exactly
          continue;
        }
        const UlpError error = ulp_error(got, exact, float32);
        EXPECT_EQ(error.mismatch, Mismatch::none) << where;
        EXPECT_LE(error.ulps, derived_bound(exact.hi / a)) << where;
        worst = std::max(worst, error.ulps);
      }
    }
  }
  return worst;
}

TEST(RotaryRotatedFloat32, everyPresetIsWithinTheRotationBoundAtRandomPositionsUpTo2To24) {
  const std::uint64_t seed = 20261124;  // fixed so a failure reproduces
  std::printf("seed %llu\n", static_cast<unsigned long long>(seed));
  std::mt19937_64 random(seed);
  std::uniform_int_distribution<std::int64_t> position(0, (std::int64_t{1} << 24) - 2);
  for (const RotaryConvention& c : rotary_presets()) {
    double worst = 0.0;
    // Pairs of rows: most are rotations (offset j != 0 from their anchor),
    // some straddle an anchor.
    for (int sample = 0; sample < 24; ++sample) worst = std::max(worst, check_rows(c, position(random), 2));
    std::printf("rotated float32 %-14s random rows: max %.4f ULP (seed %llu)\n", c.name.c_str(), worst,
                static_cast<unsigned long long>(seed));
  }
}

// Positions near the top of float32's exact range where the frequency
// inv_freq_0 = 1 (every unscaled preset's first) lies closest to a zero of sin
// or cos, and where |sin cos| lies closest to the 2^-14 threshold of the
// recomputation on either side: the two places the derivation is weakest.
// Found with libm's sin, which only chooses the inputs.
std::vector<std::int64_t> hard_positions() {
  std::vector<std::pair<double, std::int64_t>> near_zero;
  std::vector<std::pair<double, std::int64_t>> near_threshold;
  for (std::int64_t p = (std::int64_t{1} << 24) - (std::int64_t{1} << 18); p < (std::int64_t{1} << 24); ++p) {
    const double product = std::fabs(std::sin(2.0 * static_cast<double>(p))) / 2.0;  // |sin p cos p|
    near_zero.emplace_back(product, p);
    near_threshold.emplace_back(std::fabs(std::log2(product) + 14.0), p);
  }
  const auto smallest = [](std::vector<std::pair<double, std::int64_t>>& v, std::size_t n) {
    std::partial_sort(v.begin(), v.begin() + static_cast<std::ptrdiff_t>(n), v.end());
    std::vector<std::int64_t> positions;
    for (std::size_t i = 0; i < n; ++i) positions.push_back(v[i].second);
    return positions;
  };
  std::vector<std::int64_t> positions = smallest(near_zero, 8);
  for (const std::int64_t p : smallest(near_threshold, 8)) positions.push_back(p);
  return positions;
}

TEST(RotaryRotatedFloat32, entriesNearZerosAndNearTheRecomputationThresholdAreWithinTheBound) {
  const std::vector<std::int64_t> positions = hard_positions();
  for (const char* name : {"llama2", "gpt-j", "llama2-meta"}) {  // rotate-half, interleaved, complex
    const RotaryConvention c = *find_rotary_preset(name);
    ASSERT_EQ(rotary_derived(c).attention_factor, 1.0) << name;
    double worst = 0.0;
    for (const std::int64_t p : positions) {
      // The anchors are multiples of K = 128: choose hard rows that are rotations.
      ASSERT_NE(p % 128, 0) << "position " << p << " is an anchor: pick another";
      worst = std::max(worst, check_rows(c, p, 1));
    }
    std::printf("rotated float32 %-14s near zeros and the threshold: max %.4f ULP\n", name, worst);
  }
}

}  // namespace
}  // namespace pecheck
