// Rotary conventions as data: the presets' derived values from their sources,
// the column layouts, and the errors a convention no rule can build gives.
#include <gtest/gtest.h>

#include <cmath>
#include <set>

#include "pecheck/rotary_cache.hpp"
#include "pecheck/rotary_convention.hpp"
#include "pecheck/testing/presets.hpp"

namespace pecheck {
namespace {

using testing::rotary_preset;

TEST(RotaryPresets, everyPresetHasASourceAndAUniqueNameAndIsValid) {
  std::set<std::string> names;
  for (const RotaryConvention& c : rotary_presets()) {
    EXPECT_TRUE(names.insert(c.name).second) << c.name;
    EXPECT_GT(c.source.size(), 20U) << c.name;
    EXPECT_NO_THROW(check_rotary_convention(c)) << c.name;
  }
  for (const char* name : {"llama2", "llama3", "llama3.1", "qwen2", "mistral", "gpt-neox", "gpt-j", "phi3-longrope",
                           "yarn", "llama2-meta"}) {
    EXPECT_TRUE(find_rotary_preset(name).has_value()) << name;
  }
}

TEST(RotaryPresets, rotaryWidthIsTheIntegerPartOfHeadDimTimesTheFraction) {
  EXPECT_EQ(rotary_derived(rotary_preset("gpt-neox")).dims, 24);  // int(96 * 0.25)
  EXPECT_EQ(rotary_derived(rotary_preset("gpt-j")).dims, 64);     // rotary_dim 64 of 256
  EXPECT_EQ(rotary_derived(rotary_preset("llama3.1")).dims, 128);
  EXPECT_EQ(rotary_columns(rotary_preset("llama2-meta")), 64);  // complex form: d/2 columns
  EXPECT_EQ(rotary_columns(rotary_preset("llama2")), 128);
}

TEST(RotaryPresets, attentionFactorsFollowTheirScalingRules) {
  // _compute_yarn_parameters: get_mscale(factor) = 0.1 ln(factor) + 1.
  EXPECT_EQ(rotary_derived(rotary_preset("yarn")).attention_factor, 0.1 * std::log(4.0) + 1.0);
  // _compute_longrope_parameters: sqrt(1 + ln(factor) / ln(original)), factor = 131072 / 4096.
  EXPECT_EQ(rotary_derived(rotary_preset("phi3-longrope")).attention_factor,
            std::sqrt(1.0 + std::log(32.0) / std::log(4096.0)));
  EXPECT_EQ(rotary_derived(rotary_preset("llama3.1")).attention_factor, 1.0);
  RotaryConvention explicit_factor = rotary_preset("yarn");
  explicit_factor.attention_factor = 1.5;
  EXPECT_EQ(rotary_derived(explicit_factor).attention_factor, 1.5);
}

TEST(RotaryPresets, longropeUsesShortFactorsUpToTheOriginalLengthAndLongBeyond) {
  RotaryConvention c = rotary_preset("phi3-longrope");
  EXPECT_EQ(rotary_derived(c).ext_factors, &c.scaling.short_factor);
  c.scaling.sequence_length = 4097;
  EXPECT_EQ(rotary_derived(c).ext_factors, &c.scaling.long_factor);
}

TEST(RotaryPresets, ntkBasesAreComputedAsHuggingFaceComputesThemInDouble) {
  RotaryConvention c = rotary_preset("llama2");
  c.scaling.kind = RotaryScalingKind::dynamic_ntk;
  c.scaling.factor = 2.0;
  c.scaling.original_max_position = 4096;
  EXPECT_EQ(rotary_derived(c).effective_base, 10000.0);  // no longer than trained: unchanged
  c.scaling.sequence_length = 8192;
  EXPECT_EQ(rotary_derived(c).effective_base, 10000.0 * std::pow(2.0 * 8192 / 4096 - 1.0, 128.0 / 126.0));
  c.scaling.kind = RotaryScalingKind::ntk;
  EXPECT_EQ(rotary_derived(c).effective_base, 10000.0 * std::pow(2.0, 128.0 / 126.0));
}

TEST(RotaryLayouts, columnsShareFrequenciesAsEachLayoutSays) {
  const RotaryConvention half = rotary_preset("llama2");
  EXPECT_EQ(rotary_column_frequency(half, 5), 5);
  EXPECT_EQ(rotary_column_frequency(half, 64 + 5), 5);
  const RotaryConvention pairs = rotary_preset("gpt-j");
  EXPECT_EQ(rotary_column_frequency(pairs, 10), 5);
  EXPECT_EQ(rotary_column_frequency(pairs, 11), 5);
  const RotaryConvention complex = rotary_preset("llama2-meta");
  EXPECT_EQ(rotary_column_frequency(complex, 63), 63);
}

TEST(RotaryConventionErrors, nameTheFieldAndWhatWasExpected) {
  RotaryConvention c = rotary_preset("llama2");
  c.base = 1.0;
  EXPECT_THROW(
      {
        try {
          check_rotary_convention(c);
        } catch (const ConventionError& e) {
          EXPECT_NE(std::string(e.what()).find("base (rope_theta)"), std::string::npos) << e.what();
          throw;
        }
      },
      ConventionError);
  c = rotary_preset("gpt-neox");
  c.rotary_fraction = 0.3;  // int(96 * 0.3) = 28: even, fine; 0.31 gives 29
  EXPECT_NO_THROW(check_rotary_convention(c));
  c.rotary_fraction = 0.31;
  EXPECT_THROW(check_rotary_convention(c), ConventionError);
  c = rotary_preset("phi3-longrope");
  c.scaling.long_factor.pop_back();
  EXPECT_THROW(check_rotary_convention(c), ConventionError);
  EXPECT_THROW(check_rotary_request(rotary_preset("llama2"), {(std::int64_t{1} << 24) - 1, 2, FormatId::float32}),
               ConventionError);
}

TEST(ComputationModels, hfFloat32IsStepwiseFloat32) {
  const std::optional<ComputationModel> model = find_computation_model("hf-float32");
  ASSERT_TRUE(model.has_value());
  EXPECT_EQ(model->inv_freq, FormatId::float32);
  EXPECT_EQ(model->angle, FormatId::float32);
  EXPECT_EQ(model->inv_freq_rule, InvFreqRule::stepwise);
  EXPECT_FALSE(find_computation_model("nonsense").has_value());
}

}  // namespace
}  // namespace pecheck
