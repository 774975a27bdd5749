// config.json files written at test time, mirroring public models' configs
// (the rope fields of their config.json on the Hugging Face Hub, as the
// presets cite them), read into conventions equal to the presets; bad fields
// give one error naming the file and the field.
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

#include "pecheck/rotary_config.hpp"
#include "pecheck/testing/config_errors.hpp"
#include "pecheck/testing/temp_dir.hpp"

namespace pecheck {
namespace {

RotaryConvention from_text(const std::string& text, const RotaryConfigOptions& options = {}) {
  return parse_rotary_config(text, "config.json", options);
}

void expect_same_rule(const RotaryConvention& read, std::string_view preset_name) {
  const RotaryConvention preset = *find_rotary_preset(preset_name);
  const RotaryDerived a = rotary_derived(read);
  const RotaryDerived b = rotary_derived(preset);
  EXPECT_EQ(read.base, preset.base) << preset_name;
  EXPECT_EQ(a.dims, b.dims) << preset_name;
  EXPECT_EQ(read.scaling.kind, preset.scaling.kind) << preset_name;
  EXPECT_EQ(read.scaling.factor, preset.scaling.factor) << preset_name;
  EXPECT_EQ(read.scaling.original_max_position, preset.scaling.original_max_position) << preset_name;
  EXPECT_EQ(a.attention_factor, b.attention_factor) << preset_name;
  EXPECT_EQ(a.effective_base, b.effective_base) << preset_name;
}

TEST(RotaryConfig, llama31ConfigReadsAsTheLlama31Preset) {
  // meta-llama/Llama-3.1-8B config.json (rope fields).
  const char* text = R"({"hidden_size": 4096, "num_attention_heads": 32, "max_position_embeddings": 131072,
    "rope_theta": 500000.0, "rope_scaling": {"factor": 8.0, "low_freq_factor": 1.0, "high_freq_factor": 4.0,
    "original_max_position_embeddings": 8192, "rope_type": "llama3"}})";
  expect_same_rule(from_text(text), "llama3.1");
}

TEST(RotaryConfig, qwen2AndMistralConfigsReadAsTheirPresets) {
  // Qwen/Qwen2-7B config.json: head_dim from hidden_size / num_attention_heads.
  expect_same_rule(from_text(R"({"hidden_size": 3584, "num_attention_heads": 28, "rope_theta": 1000000.0,
    "max_position_embeddings": 32768, "rope_scaling": null})"),
                   "qwen2");
  // mistralai/Mistral-7B-v0.3 config.json: an explicit head_dim.
  expect_same_rule(from_text(R"({"hidden_size": 4096, "num_attention_heads": 32, "head_dim": 128,
    "rope_theta": 1000000.0, "max_position_embeddings": 32768})"),
                   "mistral");
}

TEST(RotaryConfig, phi3ConfigFileReadsAsTheLongropePreset) {
  // microsoft/Phi-3-vision-128k-instruct: "su" is LongRoPE's older name; the
  // factor is max_position_embeddings / original_max_position_embeddings.
  const RotaryConvention preset = *find_rotary_preset("phi3-longrope");
  auto array = [](const std::vector<double>& v) {
    std::ostringstream out;
    out.precision(17);
    out << "[";
    for (std::size_t k = 0; k < v.size(); ++k) out << (k ? ", " : "") << v[k];
    return out.str() + "]";
  };
  const std::string text = R"({"hidden_size": 3072, "num_attention_heads": 32, "rope_theta": 10000.0,
    "max_position_embeddings": 131072, "original_max_position_embeddings": 4096,
    "rope_scaling": {"type": "su", "long_factor": )" +
                           array(preset.scaling.long_factor) + R"(, "short_factor": )" +
                           array(preset.scaling.short_factor) + "}}";
  testing::TempDir dir;
  std::ofstream(dir / "config.json") << text;
  const RotaryConvention read = read_rotary_config(dir / "config.json");
  expect_same_rule(read, "phi3-longrope");
  EXPECT_EQ(read.scaling.long_factor, preset.scaling.long_factor);
  EXPECT_EQ(read.scaling.short_factor, preset.scaling.short_factor);
}

TEST(RotaryConfig, partialRotaryFactorAndExplicitAttentionFactorAreRead) {
  const RotaryConvention c = from_text(R"({"hidden_size": 2560, "num_attention_heads": 32,
    "partial_rotary_factor": 0.4, "rope_scaling": {"rope_type": "yarn", "factor": 2.0, "attention_factor": 1.25,
    "original_max_position_embeddings": 2048}})");
  EXPECT_EQ(rotary_derived(c).dims, 32);  // Phi-2's shape: int(80 * 0.4)
  EXPECT_EQ(rotary_derived(c).attention_factor, 1.25);
  EXPECT_EQ(c.base, 10000.0);  // HF's default rope_theta
}


TEST(RotaryConfigErrors, nameTheFileTheFieldAndWhatWasExpected) {
  testing::expect_config_error_naming("{", "not JSON");
  testing::expect_config_error_naming("[1, 2]", "top level");
  testing::expect_config_error_naming(R"({"hidden_size": 4096, "num_attention_heads": 32, "rope_theta": "big"})", "rope_theta");
  testing::expect_config_error_naming(R"({"num_attention_heads": 32})", "hidden_size");
  testing::expect_config_error_naming(R"({"head_dim": 64, "rope_scaling": {"rope_type": "magic", "factor": 2}})",
                      "rope_scaling.rope_type");
  testing::expect_config_error_naming(R"({"head_dim": 64, "rope_scaling": {"rope_type": "linear"}})", "rope_scaling.factor");
  testing::expect_config_error_naming(R"({"head_dim": 64, "rope_scaling": {"rope_type": "llama3", "factor": 8}})",
                      "rope_scaling.low_freq_factor");
  testing::expect_config_error_naming(R"({"head_dim": 64, "rope_scaling": {"type": "su", "long_factor": [1, 2],
    "short_factor": [1, 2]}})",
                      "rope_scaling.long_factor");
  testing::expect_config_error_naming(R"({"head_dim": 64, "rope_theta": 0.5})", "rope_theta");
  testing::expect_config_error_naming(R"({"head_dim": 64, "max_position_embeddings": 1.5})", "max_position_embeddings");
  EXPECT_THROW(read_rotary_config("/nonexistent/config.json"), RotaryConfigError);
}

// Parameters whose cache cannot be finite or meaningful are refused when the
// file is read, with the field and the accepted range (rotary_ranges.cpp):
// a linear factor of 1e-320 made every inv_freq infinite (an all-NaN cache,
// and a detection that never ended), an attention factor of 1e308 an
// infinite one.
TEST(RotaryConfigErrors, parametersWhoseCacheCannotBeFiniteAreRefusedWithTheRange) {
  testing::expect_config_error_naming(R"({"head_dim": 64, "rope_scaling": {"rope_type": "linear", "factor": 1e-320}})",
                      "rope_scaling.factor is 9.99989e-321: it makes inv_freq_0 inf; expected every inv_freq in "
                      "[2^-126, pi] radians per position (a factor in [0.31831, ");
  // 1e-5 is finite but aliased: 1e5 radians per position.
  testing::expect_config_error_naming(R"({"head_dim": 64, "rope_scaling": {"rope_type": "linear", "factor": 1e-5}})",
                      "rope_scaling.factor is 1e-05: it makes inv_freq_0 100000");
  testing::expect_config_error_naming(R"({"head_dim": 64, "rope_scaling": {"rope_type": "linear", "factor": 1e300}})",
                      "rope_scaling.factor is 1e+300");
  testing::expect_config_error_naming(R"({"head_dim": 64, "rope_scaling": {"rope_type": "ntk", "factor": 1e300}})",
                      "rope_scaling.factor");
  testing::expect_config_error_naming(R"({"head_dim": 64, "rope_scaling": {"rope_type": "yarn", "factor": 4,
    "original_max_position_embeddings": 4096, "attention_factor": 1e308}})",
                      "rope_scaling.attention_factor is 1e+308, expected a number in [2^-14, 65504]");
  testing::expect_config_error_naming(R"({"head_dim": 64, "rope_scaling": {"rope_type": "yarn", "factor": 4, "mscale": -100,
    "mscale_all_dim": 1, "original_max_position_embeddings": 4096}})",
                      "the attention factor derived from rope_scaling");
  testing::expect_config_error_naming(R"({"head_dim": 64, "rope_theta": 1e300})", "base (rope_theta) is 1e+300");
  testing::expect_config_error_naming(R"({"head_dim": 4, "rope_scaling": {"type": "su", "long_factor": [1, 1],
    "short_factor": [1, 1e-300]}, "max_position_embeddings": 8192, "original_max_position_embeddings": 4096})",
                      "rope_scaling.short_factor[1]");
}

TEST(RotaryConfigErrors, everyPresetsResultsAreInRange) {
  for (const RotaryConvention& preset : rotary_presets()) {
    EXPECT_NO_THROW(check_rotary_results(preset)) << preset.name;
  }
}

}  // namespace
}  // namespace pecheck
