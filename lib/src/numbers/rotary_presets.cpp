// The rotary presets: named values of RotaryConvention, each with the source
// of every number in it (the model's config.json and the transformers
// function that turns it into inv_freq).
#include <algorithm>

#include "pecheck/rotary_convention.hpp"

namespace pecheck {

namespace {

RotaryConvention plain(std::string name, std::string source, double base, std::int64_t head_dim,
                       std::int64_t max_position) {
  RotaryConvention c;
  c.name = std::move(name);
  c.source = std::move(source);
  c.base = base;
  c.head_dim = head_dim;
  c.max_position = max_position;
  return c;
}

// microsoft/Phi-3-vision-128k-instruct config.json, rope_scaling "su"
// (LongRoPE): 48 factors each, one per frequency of head_dim 96.
const std::vector<double> phi3_long_factor = {
    1.0299999713897705, 1.0499999523162842, 1.0499999523162842, 1.0799999237060547, 1.2299998998641968,
    1.2299998998641968, 1.2999999523162842, 1.4499999284744263, 1.5999999046325684, 1.6499998569488525,
    1.8999998569488525, 2.859999895095825,  3.68999981880188,   5.419999599456787,  5.489999771118164,
    5.489999771118164,  9.09000015258789,   11.579999923706055, 15.65999984741211,  15.769999504089355,
    15.789999961853027, 18.360000610351562, 21.989999771118164, 23.079999923706055, 30.009998321533203,
    32.35000228881836,  32.590003967285156, 35.56000518798828,  39.95000457763672,  53.840003967285156,
    56.20000457763672,  57.95000457763672,  59.29000473022461,  59.77000427246094,  59.920005798339844,
    61.190006256103516, 61.96000671386719,  62.50000762939453,  63.3700065612793,   63.48000717163086,
    63.48000717163086,  63.66000747680664,  63.850006103515625, 64.08000946044922,  64.760009765625,
    64.80001068115234,  64.81001281738281,  64.81001281738281};
const std::vector<double> phi3_short_factor = {1.05,
                                               1.05,
                                               1.05,
                                               1.1,
                                               1.1,
                                               1.1,
                                               1.2500000000000002,
                                               1.2500000000000002,
                                               1.4000000000000004,
                                               1.4500000000000004,
                                               1.5500000000000005,
                                               1.8500000000000008,
                                               1.9000000000000008,
                                               2.000000000000001,
                                               2.000000000000001,
                                               2.000000000000001,
                                               2.000000000000001,
                                               2.000000000000001,
                                               2.000000000000001,
                                               2.000000000000001,
                                               2.000000000000001,
                                               2.000000000000001,
                                               2.000000000000001,
                                               2.000000000000001,
                                               2.000000000000001,
                                               2.000000000000001,
                                               2.000000000000001,
                                               2.000000000000001,
                                               2.000000000000001,
                                               2.000000000000001,
                                               2.000000000000001,
                                               2.000000000000001,
                                               2.1000000000000005,
                                               2.1000000000000005,
                                               2.2,
                                               2.3499999999999996,
                                               2.3499999999999996,
                                               2.3499999999999996,
                                               2.3499999999999996,
                                               2.3999999999999995,
                                               2.3999999999999995,
                                               2.6499999999999986,
                                               2.6999999999999984,
                                               2.8999999999999977,
                                               2.9499999999999975,
                                               3.049999999999997,
                                               3.049999999999997,
                                               3.049999999999997};

std::vector<RotaryConvention> make_presets() {
  std::vector<RotaryConvention> all;
  all.push_back(plain("llama2",
                      "meta-llama/Llama-2-7b-hf config.json (hidden 4096 / 32 heads, rope_theta 10000 by default); "
                      "transformers _compute_default_rope_parameters, rotate_half",
                      10000.0, 128, 4096));
  all.push_back(plain("llama3", "meta-llama/Meta-Llama-3-8B config.json (rope_theta 500000, 4096 / 32 heads)", 500000.0,
                      128, 8192));
  {
    RotaryConvention c = plain("llama3.1",
                               "meta-llama/Llama-3.1-8B config.json (rope_theta 500000; rope_scaling llama3: factor 8, "
                               "low_freq_factor 1, high_freq_factor 4, original_max_position_embeddings 8192); "
                               "transformers _compute_llama3_parameters",
                               500000.0, 128, 131072);
    c.scaling.kind = RotaryScalingKind::llama3;
    c.scaling.factor = 8.0;
    c.scaling.low_freq_factor = 1.0;
    c.scaling.high_freq_factor = 4.0;
    c.scaling.original_max_position = 8192;
    all.push_back(c);
  }
  {
    RotaryConvention c = plain("llama3.2",
                               "meta-llama/Llama-3.2-1B config.json (head_dim 64, rope_theta 500000; rope_scaling "
                               "llama3: factor 32, low_freq_factor 1, high_freq_factor 4, "
                               "original_max_position_embeddings 8192); transformers _compute_llama3_parameters",
                               500000.0, 64, 131072);
    c.scaling.kind = RotaryScalingKind::llama3;
    c.scaling.factor = 32.0;
    c.scaling.original_max_position = 8192;
    all.push_back(c);
  }
  all.push_back(
      plain("qwen2", "Qwen/Qwen2-7B config.json (rope_theta 1000000, hidden 3584 / 28 heads)", 1000000.0, 128, 32768));
  all.push_back(plain("mistral", "mistralai/Mistral-7B-v0.3 config.json (rope_theta 1000000, head_dim 128; v0.2 on)",
                      1000000.0, 128, 32768));
  {
    RotaryConvention c = plain("gpt-neox",
                               "EleutherAI/gpt-neox-20b config.json (hidden 6144 / 64 heads, rotary_pct 0.25, "
                               "rotary_emb_base 10000); GPT-NeoX rotate_half",
                               10000.0, 96, 2048);
    c.rotary_fraction = 0.25;
    all.push_back(c);
  }
  {
    RotaryConvention c = plain("gpt-j",
                               "EleutherAI/gpt-j-6b config.json (n_embd 4096 / 16 heads, rotary_dim 64); GPT-J "
                               "rotate_every_two: interleaved pairs",
                               10000.0, 256, 2048);
    c.rotary_fraction = 0.25;
    c.layout = RotaryLayout::interleaved;
    all.push_back(c);
  }
  {
    RotaryConvention c = plain("llama2-meta",
                               "Meta's reference llama/model.py precompute_freqs_cis (theta 10000, dim 128): "
                               "polar(1, freqs) as an (L, d/2) complex table, here its real and imaginary parts",
                               10000.0, 128, 4096);
    c.layout = RotaryLayout::complex_form;
    all.push_back(c);
  }
  {
    RotaryConvention c = plain("phi3-longrope",
                               "microsoft/Phi-3-vision-128k-instruct config.json (hidden 3072 / 32 heads, rope_theta "
                               "10000, original_max_position_embeddings 4096, max_position_embeddings 131072, "
                               "rope_scaling su = longrope, its 48 long and short factors); transformers "
                               "_compute_longrope_parameters (factor = 131072 / 4096, short factors below 4096)",
                               10000.0, 96, 131072);
    c.scaling.kind = RotaryScalingKind::longrope;
    c.scaling.factor = 131072.0 / 4096.0;
    c.scaling.original_max_position = 4096;
    c.scaling.long_factor = phi3_long_factor;
    c.scaling.short_factor = phi3_short_factor;
    all.push_back(c);
  }
  {
    RotaryConvention c = plain("yarn",
                               "Qwen2.5 README, Processing Long Texts: rope_scaling yarn factor 4, "
                               "original_max_position_embeddings 32768, on Qwen/Qwen2.5-7B-Instruct (rope_theta "
                               "1000000, 3584 / 28 heads); transformers _compute_yarn_parameters (beta_fast 32, "
                               "beta_slow 1, attention factor 0.1 ln 4 + 1)",
                               1000000.0, 128, 131072);
    c.scaling.kind = RotaryScalingKind::yarn;
    c.scaling.factor = 4.0;
    c.scaling.original_max_position = 32768;
    all.push_back(c);
  }
  {
    RotaryConvention c = plain("deepseek-v3",
                               "deepseek-ai/DeepSeek-V3 config.json (qk_rope_head_dim 64 of qk_nope_head_dim 128 + 64, "
                               "rope_theta 10000; rope_scaling yarn: factor 40, original 4096, beta_fast 32, beta_slow "
                               "1, mscale 1, mscale_all_dim 1); transformers _compute_yarn_parameters (attention factor "
                               "get_mscale(40, 1) / get_mscale(40, 1) = 1) and DeepseekV3Attention (softmax scale "
                               "192^-1/2 get_mscale(40, 1)^2)",
                               10000.0, 64, 163840);
    c.query_key_dim = 192;
    c.scaling.kind = RotaryScalingKind::yarn;
    c.scaling.factor = 40.0;
    c.scaling.original_max_position = 4096;
    c.scaling.mscale = 1.0;
    c.scaling.mscale_all_dim = 1.0;
    all.push_back(c);
  }
  {
    RotaryConvention c = plain("gpt-oss",
                               "openai/gpt-oss-20b config.json (head_dim 64, rope_theta 150000; rope_scaling yarn: "
                               "factor 32, original 4096, beta_fast 32, beta_slow 1, truncate false); transformers "
                               "_compute_yarn_parameters with truncate false (the correction range kept unrounded)",
                               150000.0, 64, 131072);
    c.scaling.kind = RotaryScalingKind::yarn;
    c.scaling.factor = 32.0;
    c.scaling.original_max_position = 4096;
    c.scaling.truncate = false;
    all.push_back(c);
  }
  {
    // With one position id for all three sections (text), the cache is the
    // unsectioned rule's; the sections decide where 3-D ids go.
    RotaryConvention c = plain("qwen3-vl",
                               "Qwen/Qwen3-VL-8B-Instruct config.json (text_config: head_dim 128, rope_theta 5000000, "
                               "rope_scaling default with mrope_section [24, 20, 20], mrope_interleaved true); "
                               "Qwen3-VL modeling's apply_interleaved_mrope",
                               5000000.0, 128, 262144);
    c.mrope_section = {24, 20, 20};
    c.mrope_interleaved = true;
    all.push_back(c);
  }
  {
    RotaryConvention c = plain("qwen3.5",
                               "Qwen/Qwen3.5-35B-A3B config.json (text_config: head_dim 256, partial_rotary_factor "
                               "0.25, rope_theta 10000000, rope_parameters default with mrope_section [11, 11, 10], "
                               "mrope_interleaved true): M-RoPE on the 64 rotary dims of 256 (AI-Hypercomputer/maxtext "
                               "issue 4616 dropped the partial factor on this path)",
                               10000000.0, 256, 262144);
    c.rotary_fraction = 0.25;
    c.mrope_section = {11, 11, 10};
    c.mrope_interleaved = true;
    all.push_back(c);
  }
  {
    RotaryConvention c = plain("gemma4-global",
                               "google/gemma-4-E2B-it config.json (text_config: global_head_dim 512 for full-attention "
                               "layers, rope_parameters.full_attention: rope_type proportional, partial_rotary_factor "
                               "0.25, rope_theta 1000000); transformers _compute_proportional_rope_parameters (64 of "
                               "256 pairs at base^(-2i/512), the rest at frequency 0)",
                               1000000.0, 512, 131072);
    c.rotary_fraction = 0.25;
    c.partial_form = PartialRotaryForm::proportional;
    all.push_back(c);
  }
  return all;
}

}  // namespace

const std::vector<RotaryConvention>& rotary_presets() {
  static const std::vector<RotaryConvention> presets = make_presets();
  return presets;
}

std::optional<RotaryConvention> find_rotary_preset(std::string_view name) {
  const auto& all = rotary_presets();
  const auto it = std::find_if(all.begin(), all.end(), [&](const RotaryConvention& c) { return same_name(c.name, name); });
  if (it == all.end()) return std::nullopt;
  return *it;
}

}  // namespace pecheck
