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

RotaryConvention parse_rotary_config(std::string_view json_text, std::string_view file_name,
                                     const RotaryConfigOptions& options = {});
RotaryConvention read_rotary_config(const std::filesystem::path& file, const RotaryConfigOptions& options = {});

}  // namespace pecheck
