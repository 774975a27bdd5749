// The fast path of the computation model hf-float32 against the reference's
// model values: every preset, rows at both ends of [0, 2^20], every column.
// The bound is derived in lib/src/fast/rotary_model_fast.cpp: inv_freq and
// the float32 angle are reproduced exactly, and each entry is within
// 0.5 + 2^-20 float32 ULP of the model's exact value wherever the angle is
// at least 2^-33.9 turns from a zero of its cos or sin, which is checked here
// for every entry compared rather than assumed.
#include <gtest/gtest.h>

#include <cmath>
#include <numbers>

#include "pecheck/reference/rotary_reference.hpp"
#include "pecheck/rotary_cache.hpp"
#include "pecheck/ulp.hpp"

namespace pecheck {
namespace {

constexpr double float32_bound_ulps = 0.5 + 0x1p-20;
const long double min_turns_from_zero = std::exp2(-33.9L);

ComputationModel hf_float32() { return *find_computation_model("hf-float32"); }

// First positions of 3-row blocks: 0 (the zero angle), the float16 and
// bfloat16 edges, around 2^16, and the block ending at 2^20.
const std::int64_t block_starts[] = {0, 255, 2047, 65535, 524287, (std::int64_t{1} << 20) - 2};
constexpr std::int64_t block_rows = 3;

// Distance in turns from angle / (2 pi) to the nearest zero of cos (odd
// quarter turns) or sin (half turns), in long double (64 bits: about 2^-47
// absolute at 2^17 turns, far below the 2^-33.9 it is compared with).
long double turns_from_zero(double angle, bool cosine) {
  const long double turns = static_cast<long double>(angle) / (2 * std::numbers::pi_v<long double>);
  const long double shifted = cosine ? turns - 0.25L : turns;
  return std::fabs(shifted - 0.5L * std::nearbyint(2 * shifted));
}

TEST(RotaryModelFast, inverseFrequenciesAreTheReferencesBitForBit) {
  for (const RotaryConvention& c : rotary_presets()) {
    const std::vector<double> fast = hf_float32_inv_freq(c);
    for (std::size_t i = 0; i < fast.size(); ++i) {
      ASSERT_EQ(fast[i], reference::rotary_model_inv_freq(c, static_cast<std::int64_t>(i), hf_float32()))
          << c.name << " inv_freq " << i;
    }
  }
}

TEST(RotaryModelFast, everyPresetIsWithinItsBoundOfTheModelUpTo2To20) {
  const Format& float32 = format_of(FormatId::float32);
  for (const RotaryConvention& c : rotary_presets()) {
    const std::vector<double> inv_freq = hf_float32_inv_freq(c);
    double worst = 0.0;
    for (const std::int64_t first : block_starts) {
      const RotaryCacheRequest request{first, block_rows, FormatId::float32};
      const RotaryCache fast = fast_rotary_model_cache(c, request, hf_float32());
      const reference::RotaryReferenceCache model = reference::rotary_reference_cache(c, request, hf_float32(), 0);
      for (std::int64_t r = 0; r < block_rows; ++r) {
        for (std::int64_t col = 0; col < rotary_columns(c); ++col) {
          const std::size_t k = static_cast<std::size_t>(r * rotary_columns(c) + col);
          const double p = static_cast<double>(first + r);
          const double angle =
              static_cast<float>(p * inv_freq[static_cast<std::size_t>(rotary_column_frequency(c, col))]);
          for (const bool cosine : {true, false}) {
            const DoubleDouble exact = (cosine ? model.exact_cos : model.exact_sin)[k];
            const double got = (cosine ? fast.cos : fast.sin).at(r, col);
            const double ulps = ulp_error(got, exact, float32).ulps;
            worst = std::max(worst, ulps);
            ASSERT_LE(ulps, float32_bound_ulps) << c.name << " position " << first + r << " column " << col
                                                << (cosine ? " cos" : " sin") << ": " << got << " against " << exact.hi;
            if (angle != 0.0) {
              ASSERT_GE(turns_from_zero(angle, cosine), min_turns_from_zero) << c.name << " position " << first + r;
            }
          }
        }
      }
    }
    RecordProperty(c.name + "_max_ulp", std::to_string(worst));
  }
}

TEST(RotaryModelFast, narrowFormatsAreWithinHalfAnUlpAndABit) {
  // float16 and bfloat16: the same error eps |x| is a smaller share of
  // their wider ULP, so 0.5 + 2^-20 of their own ULP bounds them too.
  const RotaryConvention c = *find_rotary_preset("llama3.1");
  for (const FormatId id : {FormatId::float16, FormatId::bfloat16}) {
    const RotaryCacheRequest request{(std::int64_t{1} << 20) - 2, block_rows, id};
    const RotaryCache fast = fast_rotary_model_cache(c, request, hf_float32());
    const reference::RotaryReferenceCache model = reference::rotary_reference_cache(c, request, hf_float32(), 0);
    for (std::int64_t k = 0; k < fast.cos.size(); ++k) {
      ASSERT_LE(ulp_error(fast.cos.flat(k), model.exact_cos[static_cast<std::size_t>(k)], format_of(id)).ulps,
                float32_bound_ulps);
      ASSERT_LE(ulp_error(fast.sin.flat(k), model.exact_sin[static_cast<std::size_t>(k)], format_of(id)).ulps,
                float32_bound_ulps);
    }
  }
}

TEST(RotaryModelFast, otherModelsAndFloat64AreRefusedByName) {
  const RotaryConvention c = *find_rotary_preset("llama2");
  const RotaryCacheRequest request{0, 1, FormatId::float32};
  try {
    (void)fast_rotary_model_cache(c, request, *find_computation_model("float64"));
    ADD_FAILURE() << "no error";
  } catch (const ConventionError& error) {
    EXPECT_NE(std::string(error.what()).find("float64"), std::string::npos);
  }
  EXPECT_THROW((void)fast_rotary_model_cache(c, {0, 1, FormatId::float64}, hf_float32()), ConventionError);
}

}  // namespace
}  // namespace pecheck
