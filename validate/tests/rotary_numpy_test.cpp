// Rotary caches computed as Hugging Face computes them (NumPy, and PyTorch
// when it can be imported), correct and with each fault of CONVENTIONS.md
// ("Rotary encodings (RoPE)"), diagnosed by validate_rotary_cache.
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

struct RotaryCase {
  std::string name;
  std::string arguments;  // rope_caches.py's
  std::string preset;     // the convention the validation is told ("" : detected)
  ValidationVerdict verdict;
  std::optional<K> hazard;             // the fault's diagnosis (and no hazard when correct)
  std::optional<std::int64_t> first;   // the position row 0 must be found to hold
};

std::string hazards_text(const Validation& result) {
  std::string text;
  for (const Hazard& h : result.hazards) text += std::string(to_string(h.kind)) + ": " + h.evidence + "\n";
  return text.empty() ? "no hazard" : text;
}

const std::vector<RotaryCase>& cases() {
  using V = ValidationVerdict;
  static const std::vector<RotaryCase> all = {
      {"llama2", "--preset llama2 --rows 512", "llama2", V::conforms, std::nullopt, 0},
      {"llama2Detected", "--preset llama2 --rows 512 --first-position 1000", "", V::conforms, std::nullopt, 1000},
      {"llama31FarOut", "--preset llama3.1 --rows 256 --first-position 70000", "llama3.1", V::conforms, std::nullopt, 70000},
      {"yarn", "--preset yarn --rows 512", "yarn", V::conforms, std::nullopt, 0},
      {"gptjInterleaved", "--preset gpt-j --rows 512", "gpt-j", V::conforms, std::nullopt, 0},
      {"complexLayout", "--preset llama2-meta --rows 512", "", V::conforms, std::nullopt, 0},
      {"bfloat16Cache", "--preset llama2 --rows 512 --dtype bfloat16", "llama2", V::conforms, std::nullopt, 0},
      {"positionsBfloat16", "--preset llama2 --rows 256 --first-position 15900 --positions bfloat16", "llama2",
       V::deviates, K::position_precision, 15900},
      {"positionsFloat16", "--preset llama2 --rows 256 --first-position 3000 --positions float16", "llama2",
       V::deviates, K::position_precision, 3000},
      {"anglesFloat16", "--preset llama2 --rows 512 --angles float16", "llama2", V::deviates, K::angle_precision, 0},
      {"anglesBfloat16", "--preset llama2 --rows 512 --angles bfloat16", "llama2", V::deviates, K::angle_precision, 0},
      {"invFreqBfloat16", "--preset llama2 --rows 512 --inv-freq bfloat16", "llama2", V::deviates,
       K::inv_freq_precision, 0},
      {"invFreqFloat16", "--preset llama3 --rows 512 --inv-freq float16", "llama3", V::deviates,
       K::inv_freq_precision, 0},
      {"wrongBase", "--preset llama2 --rows 512 --base 500000", "llama2", V::deviates, K::wrong_base, std::nullopt},
      {"scalingIgnored", "--preset llama3.1 --rows 512 --scaling none", "llama3.1", V::deviates, K::wrong_scaling,
       std::nullopt},
      {"yarnScalingIgnored", "--preset yarn --rows 512 --scaling none", "yarn", V::deviates, K::wrong_scaling,
       std::nullopt},
      {"cosSinSwapped", "--preset llama2 --rows 512 --swap-cos-sin", "llama2", V::deviates, K::cos_sin_swapped, 0},
      {"attentionFactorMissing", "--preset yarn --rows 512 --attention-factor missing", "yarn", V::deviates,
       K::attention_factor, 0},
      {"attentionFactorTwice", "--preset yarn --rows 512 --attention-factor twice", "yarn", V::deviates,
       K::attention_factor, 0},
  };
  return all;
}

class RotaryNumpy : public ::testing::TestWithParam<RotaryCase> {
 protected:
  static void SetUpTestSuite() { python_ = testing::python_with_numpy(); }
  static inline std::optional<std::string> python_;
};

void expect_diagnosed(const RotaryCase& c, const testing::GeneratedCache& files) {
  const Table cos = read_table_file(files.cos).table;
  const Table sin = read_table_file(files.sin).table;
  RotaryValidationOptions options;
  if (!c.preset.empty()) options.convention = find_rotary_preset(c.preset);
  const Validation result = validate_rotary_cache(cos, sin, options);
  const std::string text = validation_text(result, c.name);
  EXPECT_EQ(result.verdict, c.verdict) << text;
  if (c.first) {
    EXPECT_EQ(result.rotary().detection.first_position, *c.first) << text;
  }
  if (c.hazard) {
    EXPECT_TRUE(std::any_of(result.hazards.begin(), result.hazards.end(),
                            [&](const Hazard& h) { return h.kind == *c.hazard; }))
        << "expected " << to_string(*c.hazard) << "; found " << hazards_text(result) << text;
  } else {
    EXPECT_TRUE(result.hazards.empty()) << hazards_text(result);
    // A correct float32 cache of the Hugging Face computation conforms to the computation model.
    ASSERT_EQ(result.comparisons.size(), 2u);
    EXPECT_TRUE(result.comparisons[1].conforms) << text;
  }
}

TEST_P(RotaryNumpy, theCacheIsDiagnosedAsItWasMade) {
  if (!python_) GTEST_SKIP() << "no python3 with numpy";
  const testing::GeneratedCache files = testing::generated_cache(*python_, GetParam().arguments);
  ASSERT_FALSE(files.failure.has_value()) << *files.failure;
  expect_diagnosed(GetParam(), files);
}

// The same computation in PyTorch: torch's own float32 pow, cos and sin.
TEST_P(RotaryNumpy, theTorchCacheIsDiagnosedAlike) {
  if (!python_) GTEST_SKIP() << "no python3 with numpy";
  if (!testing::python_imports_torch(*python_)) GTEST_SKIP() << *python_ << " cannot import torch";
  const testing::GeneratedCache files = testing::generated_cache(*python_, GetParam().arguments + " --backend torch");
  ASSERT_FALSE(files.failure.has_value()) << *files.failure;
  expect_diagnosed(GetParam(), files);
}

INSTANTIATE_TEST_SUITE_P(Caches, RotaryNumpy, ::testing::ValuesIn(cases()),
                         [](const ::testing::TestParamInfo<RotaryCase>& param) { return param.param.name; });

}  // namespace
}  // namespace pecheck::validate
