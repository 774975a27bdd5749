#include "ggml_rope_params.hpp"

#include <cmath>

namespace pecheck::config_detail {

using nlohmann::json;

// ggml's rope parameters (llama.cpp's ggml_rope_ext arguments) as a
// convention: freq_base the base; ext_factor 0 with freq_scale s the linear
// rule by 1/s, ext_factor e in (0, 1] YaRN by factor 1/s over n_ctx_orig with
// beta_fast and beta_slow, the correction range floored and ceiled
// (ggml_rope_yarn_corr_dims) and the ramp (i - low) / max(0.001, high - low),
// HF's, its extrapolation weight times e (rope_yarn's ramp_mix: e = 1 is
// YaRN in full, a fraction mixes in that share); cos and sin times
// attn_factor, and for any nonzero e times 1 + 0.1 ln(1/s) (rope_yarn). mode "neox" pairs i and i + d/2 (rotate-half), "normal"
// adjacent elements (interleaved). Each pair's angle is built by repeated
// float32 multiplication there (theta *= theta_scale): validate names that
// frequency-accumulation against this convention.
RotaryConvention ggml_convention(const ConfigReader& reader, const json& config, RotaryConvention c) {
  const auto required = [&](std::string_view key) {
    const auto value = reader.number(config, key, key);
    if (!value) reader.fail(key, "a number (ggml rope parameters)");
    return *value;
  };
  c.base = required("freq_base");
  const double freq_scale = required("freq_scale");
  const double ext_factor = required("ext_factor");
  const double attn_factor = required("attn_factor");
  const auto dims = reader.integer(config, "n_dims", "n_dims");
  if (!dims) reader.fail("n_dims", "a whole number (the rotary width)");
  c.head_dim = *dims;
  if (!(freq_scale > 0.0 && freq_scale <= 1.0)) reader.fail("freq_scale", "a number in (0, 1]");
  if (!(ext_factor >= 0.0 && ext_factor <= 1.0)) {
    reader.fail("ext_factor", "a number in [0, 1] (0: no YaRN; 1: YaRN's ramp in full; between: that share of it)");
  }
  if (const auto it = config.find("mode"); it != config.end()) {
    if (*it == "neox") {
      c.layout = RotaryLayout::rotate_half;
    } else if (*it == "normal") {
      c.layout = RotaryLayout::interleaved;
    } else {
      reader.fail("mode", "\"neox\" or \"normal\"");
    }
  }
  double attention = attn_factor;
  if (ext_factor != 0.0) {
    c.scaling.kind = RotaryScalingKind::yarn;
    c.scaling.factor = 1.0 / freq_scale;
    c.scaling.extrapolation_mix = ext_factor;
    const auto original = reader.integer(config, "n_ctx_orig", "n_ctx_orig");
    if (!original) reader.fail("n_ctx_orig", "a whole number (YaRN's original context)");
    c.scaling.original_max_position = *original;
    c.scaling.beta_fast = reader.number(config, "beta_fast", "beta_fast").value_or(32.0);
    c.scaling.beta_slow = reader.number(config, "beta_slow", "beta_slow").value_or(1.0);
    attention *= 1.0 + 0.1 * std::log(1.0 / freq_scale);
  } else if (freq_scale != 1.0) {
    c.scaling.kind = RotaryScalingKind::linear;
    c.scaling.factor = 1.0 / freq_scale;
  }
  c.attention_factor = attention;
  c.source += " (ggml rope parameters)";
  return c;
}

}  // namespace pecheck::config_detail
