// ggml's rope parameters as a rotary convention (see ggml_rope_params.cpp).
#pragma once

#include <nlohmann/json.hpp>

#include "config_reader.hpp"
#include "pecheck/rotary_convention.hpp"

namespace pecheck::config_detail {

// `config` holds freq_base, freq_scale, ext_factor, attn_factor, n_dims and,
// for YaRN, n_ctx_orig, beta_fast, beta_slow; mode "neox" or "normal".
// `c` carries the fields the caller set (layout, source, sequence length).
RotaryConvention ggml_convention(const ConfigReader& reader, const nlohmann::json& config, RotaryConvention c);

}  // namespace pecheck::config_detail
