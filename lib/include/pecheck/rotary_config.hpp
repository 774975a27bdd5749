// A rotary convention read from a Hugging Face config.json: rope_theta,
// rope_scaling, head_dim (or hidden_size / num_attention_heads; DeepSeek's
// qk_rope_head_dim), partial_rotary_factor, max_position_embeddings, from
// the config or its text_config (multimodal models); one convention per
// layer type when the config has several: transformers v5's rope_parameters
// keyed by layer type, or Gemma 3's rope_local_base_freq for its sliding
// layers beside rope_theta and rope_scaling for the full-attention ones.
#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "pecheck/rotary_convention.hpp"

namespace pecheck {

// Bad input: the message names the file, the field and what was expected.
class RotaryConfigError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

struct RotaryConfigOptions {
  RotaryLayout layout = RotaryLayout::rotate_half;  // config.json does not say; HF's models rotate halves
  std::int64_t sequence_length = 0;                 // dynamic NTK's current length; longrope's choice of factors
  std::string layer_type;  // empty: the only rule, or full_attention's when the config has several
};

// The largest config.json read: a model's config.json is a few kilobytes (the
// largest on the Hub carry label maps of some 100 KB), and a parsed JSON
// document takes several times its size in memory, so 4 MiB leaves room
// forty times over while a 100 MB file is refused from its size alone.
inline constexpr std::uint64_t max_rotary_config_bytes = std::uint64_t{4} << 20;

// A config.json nested deeper than max_json_depth (json_input.hpp) is refused
// before it is parsed; every error names the file and the field and never
// quotes more than a short excerpt of a value.
RotaryConvention parse_rotary_config(std::string_view json_text, std::string_view file_name,
                                     const RotaryConfigOptions& options = {});
RotaryConvention read_rotary_config(const std::filesystem::path& file, const RotaryConfigOptions& options = {});

// Every rule of the config, one per layer type (layer_type names it), in the
// config's order; one with an empty layer_type when the config has one rule.
// options.layer_type is not used.
std::vector<RotaryConvention> parse_rotary_config_layers(std::string_view json_text, std::string_view file_name,
                                                         const RotaryConfigOptions& options = {});
std::vector<RotaryConvention> read_rotary_config_layers(const std::filesystem::path& file,
                                                        const RotaryConfigOptions& options = {});
// The rule for `layer_type` (empty: the only one, or full_attention's);
// throws RotaryConfigError naming --layer-type and the types the config has.
RotaryConvention choose_layer_type(std::vector<RotaryConvention> layers, std::string_view layer_type,
                                   std::string_view file_name);

// The convention a user names for a rotary subject: a config.json (`config`)
// or a rotary preset (`preset`; "auto" or empty: none), with `layout`
// ("rotate-half", "interleaved", "complex"; empty: the config's or the
// preset's) applied, and the config's rule for `layer_type` (empty: its
// only one, or full_attention's). nullopt when neither names one. Throws ConventionError
// naming the flag (--config, --rope, --layout) for what cannot be read.
std::optional<RotaryConvention> named_rotary_convention(const std::string& config, const std::string& preset,
                                                        const std::string& layout, std::int64_t sequence_length,
                                                        const std::string& layer_type = "");

}  // namespace pecheck
