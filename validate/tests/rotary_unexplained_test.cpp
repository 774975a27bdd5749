// Caches whose frequencies no preset's rule gives as such, written at test
// time by examples/rope_caches.py: rules no preset has (half the pairs at
// frequency 0, a geometric ladder between two set frequencies) are reported
// as a custom rule with the fitted ladder; a preset's rule damaged by a low
// precision (inv_freq or angles in bfloat16) or by ggml's accumulated ladder
// is named by that cause and its base, not by a base fitted from the damage.
// Each with no convention given, and its first position found.
#include <gtest/gtest.h>

#include <algorithm>
#include <optional>
#include <string>
#include <vector>

#include "pecheck/validate/rotary_validation.hpp"
#include "pecheck/validate/validation_writers.hpp"
#include "rotary_caches.hpp"

namespace pecheck::validate {
namespace {

using K = HazardKind;
using V = ValidationVerdict;

struct UnexplainedCase {
  std::string name;
  std::string arguments;  // rope_caches.py's
  std::string given;      // the preset validated against ("": detected)
  std::int64_t first = 0;
  std::optional<K> hazard;  // none: the cache conforms to a custom rule
  std::string convention;   // the rule compared against: a preset's name, or "custom rule"
};

const std::vector<UnexplainedCase>& cases() {
  static const std::vector<UnexplainedCase> all = {
      {"halfThePairsStill", "--preset llama2 --custom half-zero --rows 512 --first-position 300", "", 300,
       std::nullopt, "custom rule"},
      {"ladderBetweenTwoFrequencies", "--preset llama2 --custom ladder:0.5:0.001 --rows 512 --first-position 40", "",
       40, std::nullopt, "custom rule"},
      {"customAgainstAPreset", "--preset llama2 --custom half-zero --rows 512", "llama2", 0, K::custom_rule,
       "llama2"},
      {"invFreqBfloat16", "--preset llama2 --inv-freq bfloat16 --rows 512 --first-position 700", "", 700,
       K::inv_freq_precision, "llama2"},
      {"anglesBfloat16", "--preset llama3 --angles bfloat16 --rows 512", "", 0, K::angle_precision, "llama3"},
      {"ggmlAccumulated", "--preset llama2 --accumulate --rows 512 --first-position 2000", "", 2000,
       K::frequency_accumulation, "llama2"},
      {"partialOverHeadDim", "--preset gpt-neox --partial-over-head-dim --rows 512", "gpt-neox", 0,
       K::wrong_scaling, "gpt-neox"},
      {"ggmlAccumulatedGiven", "--preset qwen2 --accumulate --rows 512", "qwen2", 0, K::frequency_accumulation,
       "qwen2"},
  };
  return all;
}

class Unexplained : public ::testing::TestWithParam<UnexplainedCase> {
 protected:
  static void SetUpTestSuite() { python_ = testing::python_with_numpy(); }
  static inline std::optional<std::string> python_;
};

TEST_P(Unexplained, theCacheIsNamedByItsCause) {
  if (!python_) GTEST_SKIP() << "no python3 with numpy";
  const UnexplainedCase& c = GetParam();
  const testing::GeneratedCache files = testing::generated_cache(*python_, c.arguments);
  ASSERT_FALSE(files.failure.has_value()) << *files.failure;
  RotaryValidationOptions options;
  if (!c.given.empty()) options.convention = find_rotary_preset(c.given);
  const Validation result =
      validate_rotary_cache(read_table_file(files.cos).table, read_table_file(files.sin).table, options);
  std::string text = validation_text(result, c.name);
  for (const std::string& n : result.notes) text += "note: " + n + "\n";
  const RotaryDetection& d = result.rotary().detection;
  ASSERT_TRUE(d.convention.has_value()) << text;
  EXPECT_EQ(d.convention->name, c.convention) << text;
  EXPECT_EQ(d.first_position, c.first) << text;
  if (c.hazard) {
    EXPECT_EQ(result.verdict, V::deviates) << text;
    EXPECT_TRUE(std::any_of(result.hazards.begin(), result.hazards.end(), [&](const Hazard& h) { return h.kind == *c.hazard; }))
        << "expected " << to_string(*c.hazard) << "\n" << text;
    for (const Hazard& h : result.hazards) {
      EXPECT_NE(h.kind, K::wrong_base) << "blamed on another base:\n" << text;
    }
  } else {
    // Compared against its own fitted ladder, a float32 cache conforms; the notes say custom rule.
    EXPECT_EQ(result.verdict, V::conforms) << text;
    EXPECT_TRUE(result.hazards.empty()) << text;
    EXPECT_NE(text.find("custom rule: inv_freq"), std::string::npos) << text;
  }
  if (c.hazard == K::custom_rule || !c.hazard) {
    // Half-zero's ladder says its zero pairs.
    if (c.arguments.find("half-zero") != std::string::npos) {
      EXPECT_NE(text.find("32 of 64 pairs at frequency 0"), std::string::npos) << text;
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Caches, Unexplained, ::testing::ValuesIn(cases()),
                         [](const ::testing::TestParamInfo<UnexplainedCase>& param) { return param.param.name; });

}  // namespace
}  // namespace pecheck::validate
