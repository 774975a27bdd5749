// A rotary convention read from a Hugging Face config.json: rope_theta,
// rope_scaling, head_dim (or hidden_size / num_attention_heads),
// partial_rotary_factor, max_position_embeddings.
#pragma once

#include <cstdint>
#include <filesystem>
#include <stdexcept>
#include <string>
#include <string_view>

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

}  // namespace pecheck
