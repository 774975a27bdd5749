// The config.json fixtures of examples/model_configs (the rope fields of
// public models, each with its "_source") read as transformers reads them:
// every value pecheck derives is recomputed here from the fixture's own
// fields by the public formula (modeling_rope_utils.py, the models' code),
// so a fixture edited stays checked.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <nlohmann/json.hpp>
#include <numbers>

#include "pecheck/rotary_config.hpp"
#include "pecheck/rotary_frequency.hpp"
#include "pecheck/testing/config_errors.hpp"

namespace pecheck {
namespace {

const std::filesystem::path configs = PECHECK_MODEL_CONFIGS;

nlohmann::json fields(const std::string& name) {
  std::ifstream in(configs / name);
  const nlohmann::json all = nlohmann::json::parse(in);
  return all.contains("text_config") ? all["text_config"] : all;
}

// get_mscale of _compute_yarn_parameters and DeepSeek's yarn_get_mscale.
double mscale(double s, double m) { return s <= 1.0 ? 1.0 : 0.1 * m * std::log(s) + 1.0; }

TEST(ModelConfigs, everyFixtureNamesItsSourceAndReads) {
  int count = 0;
  for (const auto& entry : std::filesystem::directory_iterator(configs)) {
    std::ifstream in(entry.path());
    const nlohmann::json all = nlohmann::json::parse(in);
    EXPECT_TRUE(all.contains("_source") && all["_source"].is_string()) << entry.path();
    EXPECT_NO_THROW(read_rotary_config_layers(entry.path())) << entry.path();
    ++count;
  }
  EXPECT_GE(count, 10);
}

TEST(ModelConfigs, deepseekV3RotatesQkRopeHeadDimAndScalesTheSoftmaxByMscaleAllDimSquared) {
  const nlohmann::json f = fields("deepseek-v3.json");
  const RotaryConvention c = read_rotary_config(configs / "deepseek-v3.json");
  const RotaryDerived d = rotary_derived(c);
  EXPECT_EQ(d.dims, f["qk_rope_head_dim"].get<int>());
  const double factor = f["rope_scaling"]["factor"];
  const double m = f["rope_scaling"]["mscale"], m_all = f["rope_scaling"]["mscale_all_dim"];
  // attention factor get_mscale(s, mscale) / get_mscale(s, mscale_all_dim): 1 when they are equal.
  EXPECT_EQ(d.attention_factor, mscale(factor, m) / mscale(factor, m_all));
  const double qk = f["qk_nope_head_dim"].get<double>() + f["qk_rope_head_dim"].get<double>();
  EXPECT_DOUBLE_EQ(d.softmax_scale, mscale(factor, m_all) * mscale(factor, m_all) / std::sqrt(qk));
  EXPECT_GT(d.softmax_scale * std::sqrt(qk), 1.8);  // (0.1 ln 40 + 1)^2 = 1.87: not a rounding matter
}

// find_correction_dim of _compute_yarn_parameters.
double correction_dim(double rotations, double dims, double base, double original) {
  return dims * std::log(original / (rotations * 2.0 * std::numbers::pi)) / (2.0 * std::log(base));
}

TEST(ModelConfigs, gptOssKeepsTheYarnCorrectionRangeUnrounded) {
  const nlohmann::json f = fields("gpt-oss-20b.json");
  const RotaryConvention c = read_rotary_config(configs / "gpt-oss-20b.json");
  ASSERT_FALSE(c.scaling.truncate);
  const RotaryDerived d = rotary_derived(c);
  const double original = f["rope_scaling"]["original_max_position_embeddings"];
  const double base = f["rope_theta"];
  EXPECT_EQ(d.yarn_low, std::max(0.0, correction_dim(f["rope_scaling"]["beta_fast"], 64.0, base, original)));
  EXPECT_EQ(d.yarn_high, std::min(63.0, correction_dim(f["rope_scaling"]["beta_slow"], 64.0, base, original)));
  EXPECT_NE(d.yarn_low, std::floor(d.yarn_low));  // the range HF would round, here kept
  EXPECT_EQ(d.attention_factor, mscale(f["rope_scaling"]["factor"], 1.0));
  EXPECT_DOUBLE_EQ(d.softmax_scale, 1.0 / std::sqrt(64.0));
}

TEST(ModelConfigs, llama32ScalesByItsOwnFactor) {
  const nlohmann::json f = fields("llama-3.2-1b.json");
  const RotaryConvention c = read_rotary_config(configs / "llama-3.2-1b.json");
  EXPECT_EQ(c.scaling.kind, RotaryScalingKind::llama3);
  EXPECT_EQ(c.scaling.factor, f["rope_scaling"]["factor"].get<double>());
  EXPECT_EQ(rotary_derived(c).dims, f["head_dim"].get<int>());
}

TEST(ModelConfigs, mistralNemoTakesHeadDimOverHiddenSizeOverHeads) {
  const nlohmann::json f = fields("mistral-nemo.json");
  EXPECT_NE(f["hidden_size"].get<int>() / f["num_attention_heads"].get<int>(), f["head_dim"].get<int>());
  EXPECT_EQ(read_rotary_config(configs / "mistral-nemo.json").head_dim, f["head_dim"].get<int>());
}

TEST(ModelConfigs, phi35ReadsItsLongropeFactorsAndTheFactorFromTheContexts) {
  const nlohmann::json f = fields("phi-3.5-mini.json");
  const RotaryConvention c = read_rotary_config(configs / "phi-3.5-mini.json");
  EXPECT_EQ(c.scaling.long_factor, f["rope_scaling"]["long_factor"].get<std::vector<double>>());
  EXPECT_EQ(c.scaling.short_factor, f["rope_scaling"]["short_factor"].get<std::vector<double>>());
  const double s = f["max_position_embeddings"].get<double>() / f["original_max_position_embeddings"].get<double>();
  EXPECT_EQ(c.scaling.factor, s);
  EXPECT_EQ(rotary_derived(c).attention_factor,
            std::sqrt(1.0 + std::log(s) / std::log(f["original_max_position_embeddings"].get<double>())));
  // The short factors up to the original context, the long ones past it (not by the allocated context).
  RotaryConvention longer = c;
  longer.scaling.sequence_length = f["original_max_position_embeddings"].get<std::int64_t>() + 1;
  EXPECT_EQ(rotary_derived(c).ext_factors, &c.scaling.short_factor);
  EXPECT_EQ(rotary_derived(longer).ext_factors, &longer.scaling.long_factor);
}

TEST(ModelConfigs, qwenVlSectionsAreReadFromTheConfigOrItsTextConfig) {
  const RotaryConvention qwen2 = read_rotary_config(configs / "qwen2-vl-7b.json");
  EXPECT_EQ(qwen2.scaling.kind, RotaryScalingKind::none);
  EXPECT_EQ(qwen2.mrope_section, fields("qwen2-vl-7b.json")["rope_scaling"]["mrope_section"].get<std::vector<std::int64_t>>());
  EXPECT_FALSE(qwen2.mrope_interleaved);
  const nlohmann::json f = fields("qwen3-vl-8b.json");
  const RotaryConvention qwen3 = read_rotary_config(configs / "qwen3-vl-8b.json");
  EXPECT_EQ(qwen3.base, f["rope_theta"].get<double>());
  EXPECT_EQ(qwen3.mrope_section, f["rope_scaling"]["mrope_section"].get<std::vector<std::int64_t>>());
  EXPECT_TRUE(qwen3.mrope_interleaved);
}

void expect_same_rule(const RotaryConvention& a, const RotaryConvention& b) {
  EXPECT_EQ(a.layer_type, b.layer_type);
  EXPECT_EQ(a.base, b.base) << a.layer_type;
  EXPECT_EQ(a.head_dim, b.head_dim) << a.layer_type;
  EXPECT_EQ(a.scaling.kind, b.scaling.kind) << a.layer_type;
  EXPECT_EQ(a.scaling.factor, b.scaling.factor) << a.layer_type;
}

TEST(ModelConfigs, gemma3HasAScaledGlobalRuleAndAnUnscaledSlidingOneInEitherSpelling) {
  const nlohmann::json f = fields("gemma-3-4b.json");
  const std::vector<RotaryConvention> layers = read_rotary_config_layers(configs / "gemma-3-4b.json");
  ASSERT_EQ(layers.size(), 2u);
  EXPECT_EQ(layers[0].layer_type, "full_attention");
  EXPECT_EQ(layers[0].base, f["rope_theta"].get<double>());
  EXPECT_EQ(layers[0].scaling.kind, RotaryScalingKind::linear);
  EXPECT_EQ(layers[0].scaling.factor, f["rope_scaling"]["factor"].get<double>());
  EXPECT_EQ(layers[1].layer_type, "sliding_attention");
  EXPECT_EQ(layers[1].base, f["rope_local_base_freq"].get<double>());
  EXPECT_EQ(layers[1].scaling.kind, RotaryScalingKind::none);
  // transformers v5's rope_parameters by layer type say the same.
  std::vector<RotaryConvention> v5 = read_rotary_config_layers(configs / "gemma-3-4b-v5.json");
  ASSERT_EQ(v5.size(), 2u);
  std::sort(v5.begin(), v5.end(), [](const auto& a, const auto& b) { return a.layer_type < b.layer_type; });
  expect_same_rule(v5[0], layers[0]);
  expect_same_rule(v5[1], layers[1]);
  // Without a layer type the full-attention rule; a named one by name.
  EXPECT_EQ(read_rotary_config(configs / "gemma-3-4b.json").layer_type, "full_attention");
  RotaryConfigOptions sliding;
  sliding.layer_type = "sliding_attention";
  EXPECT_EQ(read_rotary_config(configs / "gemma-3-4b-v5.json", sliding).base, f["rope_local_base_freq"].get<double>());
}

// llama.cpp's parameters for Qwen2.5 with YaRN factor 4 are the yarn preset's rule.
TEST(ModelConfigs, ggmlRopeParametersReadAsTheRuleTheyWereConvertedFrom) {
  const nlohmann::json f = fields("ggml-qwen2.5-yarn.json");
  const RotaryConvention ggml = read_rotary_config(configs / "ggml-qwen2.5-yarn.json");
  const RotaryConvention yarn = *find_rotary_preset("yarn");
  EXPECT_EQ(ggml.scaling.kind, RotaryScalingKind::yarn);
  EXPECT_EQ(ggml.scaling.factor, 1.0 / f["freq_scale"].get<double>());
  const RotaryDerived a = rotary_derived(ggml);
  const RotaryDerived b = rotary_derived(yarn);
  EXPECT_EQ(a.dims, b.dims);
  EXPECT_EQ(a.yarn_low, b.yarn_low);
  EXPECT_EQ(a.yarn_high, b.yarn_high);
  // rope_yarn: attn_factor * (1 + 0.1 ln(1 / freq_scale)), HF's 0.1 ln(factor) + 1 here.
  EXPECT_DOUBLE_EQ(a.attention_factor, b.attention_factor);
  EXPECT_EQ(ggml.layout, RotaryLayout::rotate_half);  // mode neox
}

// ggml's rope_yarn with ext_factor e: theta = theta_interp (1 - m) + theta_extrap m,
// m = e (1 - clamp((i - low) / max(0.001, high - low), 0, 1)), and
// mscale 1 + 0.1 ln(1 / freq_scale) for any nonzero e: written out here in
// long double from those formulas, against pecheck's rule evaluated in double.
TEST(ModelConfigs, ggmlFractionalExtFactorMixesThatShareOfYarnsRamp) {
  std::ifstream in(configs / "ggml-qwen2.5-yarn.json");
  nlohmann::json f = nlohmann::json::parse(in);
  const RotaryConvention full = parse_rotary_config(f.dump(), "ggml.json");
  f["ext_factor"] = 0.5;
  const RotaryConvention half = parse_rotary_config(f.dump(), "ggml.json");
  EXPECT_EQ(half.scaling.kind, RotaryScalingKind::yarn);
  EXPECT_EQ(half.scaling.extrapolation_mix, 0.5);
  const RotaryDerived d = rotary_derived(half);
  EXPECT_DOUBLE_EQ(d.attention_factor, 1.0 + 0.1 * std::log(4.0));  // rope_yarn's mscale: e does not enter it
  const long double base = f["freq_base"].get<double>(), s = f["freq_scale"].get<double>();
  PlainDoubleArithmetic steps;
  int mixed = 0;
  for (std::int64_t i = 0; i < d.frequencies; ++i) {
    const long double extrap = 1.0L / std::pow(base, 2.0L * static_cast<long double>(i) / d.dims);
    const long double interp = s * extrap;
    const long double y = (static_cast<long double>(i) - d.yarn_low) / std::max(0.001L, static_cast<long double>(d.yarn_high - d.yarn_low));
    const long double m = 0.5L * (1.0L - std::clamp(y, 0.0L, 1.0L));
    const long double expected = interp * (1.0L - m) + extrap * m;
    const double got = rotary_inv_freq(half, d, i, steps);
    // The double rule rounds about six times (pow, the ratio, the ramp's
    // quotient, two products and the sum), each within 2^-53 relative:
    // 6 * 1.11e-16 = 6.7e-16, below 8e-16; the long double side is 2^11 finer.
    EXPECT_NEAR(got, static_cast<double>(expected), 8e-16 * static_cast<double>(expected)) << "frequency " << i;
    const double in_full = rotary_inv_freq(full, rotary_derived(full), i, steps);
    if (m > 0.0L) {
      ++mixed;
      EXPECT_LT(got, in_full) << "frequency " << i << ": half the extrapolation weight, a slower frequency";
    }
  }
  EXPECT_GT(mixed, 0);
  f["ext_factor"] = 0.0;  // no YaRN: the linear rule by 1 / freq_scale
  EXPECT_EQ(parse_rotary_config(f.dump(), "ggml.json").scaling.kind, RotaryScalingKind::linear);
}

TEST(ModelConfigErrors, nameTheFieldWhereverItIs) {
  testing::expect_config_error_naming(R"({"head_dim": 128, "rope_scaling": {"type": "mrope", "mrope_section": [16, 24, 23]}})",
                      "mrope_section");
  testing::expect_config_error_naming(R"({"head_dim": 128, "rope_scaling": {"type": "mrope", "mrope_section": [16, "a", 24]}})",
                      "rope_scaling.mrope_section");
  testing::expect_config_error_naming(R"({"text_config": {"head_dim": 64, "rope_theta": "big"}})", "text_config.rope_theta");
  testing::expect_config_error_naming(R"({"text_config": 3})", "text_config");
  testing::expect_config_error_naming(R"({"head_dim": 64, "rope_parameters": {"full_attention": 3}})",
                      "rope_parameters.full_attention");
  testing::expect_config_error_naming(R"({"head_dim": 64, "rope_parameters": {"sliding_attention": {"rope_type": "linear"}}})",
                      "rope_parameters.sliding_attention.factor");
  testing::expect_config_error_naming(R"({"head_dim": 64, "rope_parameters": {"full_attention": {"rope_type": "default",
    "rope_theta": 0.5}}})",
                      "rope_theta");
  testing::expect_config_error_naming(R"({"head_dim": 64, "rope_scaling": {"rope_type": "yarn", "factor": 4, "truncate": 1}})",
                      "rope_scaling.truncate");
  testing::expect_config_error_naming(R"({"qk_rope_head_dim": 64, "qk_nope_head_dim": -3})", "qk_nope_head_dim");
  testing::expect_config_error_naming(R"({"freq_base": 10000, "freq_scale": 1, "ext_factor": 1.5, "attn_factor": 1, "n_dims": 64})",
                      "ext_factor");
  testing::expect_config_error_naming(R"({"freq_base": 10000, "freq_scale": 0.5, "ext_factor": 1, "attn_factor": 1, "n_dims": 64})",
                      "n_ctx_orig");
  testing::expect_config_error_naming(R"({"freq_base": 10000, "freq_scale": 1, "ext_factor": 0, "attn_factor": 1, "n_dims": 64,
    "mode": "sideways"})",
                      "mode");
  RotaryConfigOptions unknown;
  unknown.layer_type = "chunked_attention";
  testing::expect_config_error_naming(R"({"head_dim": 64, "rope_local_base_freq": 10000})", "--layer-type 'chunked_attention'",
                      unknown);
}

}  // namespace
}  // namespace pecheck
