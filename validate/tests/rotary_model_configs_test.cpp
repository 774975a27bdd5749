// Caches of public models' configs (examples/model_configs, each with its
// source) written at test time by examples/rope_caches.py (the transformers
// formulas in NumPy), correct and with the config misreadings real engines
// had, diagnosed by validate_rotary_cache against the config pecheck reads.
#include <gtest/gtest.h>

#include <algorithm>
#include <optional>
#include <string>
#include <vector>

#include "pecheck/rotary_config.hpp"
#include "pecheck/validate/rotary_validation.hpp"
#include "pecheck/validate/validation_writers.hpp"
#include "rotary_caches.hpp"

namespace pecheck::validate {
namespace {

using K = HazardKind;
using V = ValidationVerdict;

std::string fixture(const std::string& name) { return std::string(PECHECK_EXAMPLES_DIR) + "/model_configs/" + name; }

struct ModelCase {
  std::string name;
  std::string config;     // the fixture
  std::string arguments;  // rope_caches.py's, beside --config
  std::string layer_type;  // the rule validated against ("": the config's default; "*": every layer type, none named)
  std::int64_t sequence_length = 0;
  V verdict = V::conforms;
  std::optional<K> hazard;
  std::string evidence;  // a phrase the hazard's evidence or a note must hold
};

const std::vector<ModelCase>& cases() {
  static const std::vector<ModelCase> all = {
      {"llama32", "llama-3.2-1b.json", "--rows 512", "", 0, V::conforms, std::nullopt, ""},
      {"llama32FarOut", "llama-3.2-1b.json", "--rows 256 --first-position 100000", "", 0, V::conforms, std::nullopt, ""},
      {"qwen2vl", "qwen2-vl-7b.json", "--rows 512", "", 0, V::conforms, std::nullopt, ""},
      {"qwen3vl", "qwen3-vl-8b.json", "--rows 512", "", 0, V::conforms, std::nullopt, ""},
      {"deepseekV3", "deepseek-v3.json", "--rows 512", "", 0, V::conforms, std::nullopt, ""},
      {"gptOss", "gpt-oss-20b.json", "--rows 512", "", 0, V::conforms, std::nullopt, ""},
      {"mistralNemo", "mistral-nemo.json", "--rows 512", "", 0, V::conforms, std::nullopt, ""},
      {"phi35Short", "phi-3.5-mini.json", "--rows 512", "", 0, V::conforms, std::nullopt, ""},
      {"phi35Long", "phi-3.5-mini.json", "--rows 512 --first-position 5000 --sequence-length 5512", "", 5512,
       V::conforms, std::nullopt, ""},
      {"gemma3Global", "gemma-3-4b.json", "--rows 512", "full_attention", 0, V::conforms, std::nullopt, ""},
      {"gemma3Sliding", "gemma-3-4b.json", "--rows 512 --layer-type sliding_attention", "sliding_attention", 0,
       V::conforms, std::nullopt, ""},
      {"gemma3V5Sliding", "gemma-3-4b-v5.json", "--rows 512 --layer-type sliding_attention", "sliding_attention", 0,
       V::conforms, std::nullopt, ""},
      // No --layer-type: the layer type the cache follows is said.
      {"gemma3SlidingFound", "gemma-3-4b.json", "--rows 512 --layer-type sliding_attention", "*", 0, V::conforms,
       std::nullopt, "follows the config's sliding_attention rule"},
      // llama.cpp's parameters for the same model: HF's cache follows them; ggml's own
      // accumulated angles are named frequency-accumulation with the base meant.
      {"ggmlParameters", "ggml-qwen2.5-yarn.json", "--rows 512", "", 0, V::conforms, std::nullopt, ""},
      {"ggmlAccumulated", "ggml-qwen2.5-yarn.json", "--rows 512 --accumulate", "", 0, V::deviates,
       K::frequency_accumulation, "base 1000000"},
      // Faults.
      {"gemma3SlidingBuiltScaled", "gemma-3-4b.json", "--rows 512 --layer-type full_attention", "sliding_attention",
       0, V::deviates, K::layer_type, "follows the config's full_attention rule"},
      {"gptOssTruncated", "gpt-oss-20b.json", "--rows 512 --yarn-truncate always", "", 0, V::deviates,
       K::wrong_scaling, "truncate false"},
      {"phi35LongByAllocatedContext", "phi-3.5-mini.json", "--rows 512 --longrope-factors by-allocated-context", "",
       0, V::deviates, K::wrong_scaling, "llama.cpp issue 24823"},
      {"llama32ScalingDropped", "llama-3.2-1b.json", "--rows 512 --scaling none", "", 0, V::deviates,
       K::wrong_scaling, "scaling ignored"},
      {"llama32AsLlama31", "llama-3.2-1b.json", "--rows 512 --scaling-factor 8", "", 0, V::deviates, K::wrong_scaling,
       "llama3"},
      {"gptOssAttentionLogTwice", "gpt-oss-20b.json", "--rows 512 --attention-factor log-twice", "", 0, V::deviates,
       K::attention_factor, "0.1 ln(s) + 1 once more"},
  };
  return all;
}

std::string text_of(const Validation& result) {
  std::string text;
  for (const Hazard& h : result.hazards) text += std::string(to_string(h.kind)) + ": " + h.evidence + "\n";
  for (const std::string& n : result.notes) text += "note: " + n + "\n";
  return text;
}

class ModelConfigCaches : public ::testing::TestWithParam<ModelCase> {
 protected:
  static void SetUpTestSuite() { python_ = testing::python_with_numpy(); }
  static inline std::optional<std::string> python_;
};

TEST_P(ModelConfigCaches, theCacheIsDiagnosedAsItWasMade) {
  if (!python_) GTEST_SKIP() << "no python3 with numpy";
  const ModelCase& c = GetParam();
  // rope_caches.py reads Hugging Face configs: ggml's parameters' cache is the yarn preset's (their source).
  const std::string source = c.config.starts_with("ggml-") ? std::string("--preset yarn")
                                                           : "--config " + testing::shell_quote(fixture(c.config));
  const testing::GeneratedCache files = testing::generated_cache(*python_, source + " " + c.arguments);
  ASSERT_FALSE(files.failure.has_value()) << *files.failure;
  RotaryConfigOptions read;
  read.sequence_length = c.sequence_length;
  RotaryValidationOptions options;
  options.layer_types = read_rotary_config_layers(fixture(c.config), read);
  if (c.layer_type != "*") options.convention = choose_layer_type(options.layer_types, c.layer_type, c.config);
  const Validation result =
      validate_rotary_cache(read_table_file(files.cos).table, read_table_file(files.sin).table, options);
  const std::string text = text_of(result) + validation_text(result, c.name);
  EXPECT_EQ(result.verdict, c.verdict) << text;
  if (c.hazard) {
    EXPECT_TRUE(std::any_of(result.hazards.begin(), result.hazards.end(), [&](const Hazard& h) { return h.kind == *c.hazard; }))
        << "expected " << to_string(*c.hazard) << "\n" << text;
  } else {
    EXPECT_TRUE(result.hazards.empty()) << text;
  }
  if (!c.evidence.empty()) {
    EXPECT_NE(text.find(c.evidence), std::string::npos) << text;
  }
}

INSTANTIATE_TEST_SUITE_P(Models, ModelConfigCaches, ::testing::ValuesIn(cases()),
                         [](const ::testing::TestParamInfo<ModelCase>& param) { return param.param.name; });

}  // namespace
}  // namespace pecheck::validate
