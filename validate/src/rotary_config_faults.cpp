#include "rotary_config_faults.hpp"

#include <cmath>

namespace pecheck::validate {

std::vector<ConfigMisreading> config_misreadings(const RotaryConvention& convention) {
  std::vector<ConfigMisreading> found;
  const RotaryScaling& s = convention.scaling;
  if (s.kind != RotaryScalingKind::none) {
    RotaryConvention ignored = convention;
    ignored.scaling = RotaryScaling{};
    found.push_back({ignored, "the config's " + std::string(to_string(s.kind)) +
                                  " scaling ignored: the unscaled rule at the same base (scaling dropped on a fast "
                                  "path: unsloth issue 6197; returned unscaled: transformers issue 32330)"});
  }
  if (convention.rotary_fraction < 1.0) {
    // base^(-2i/H) over the head_dim H instead of the rotary width d is the
    // rule at base^(d/H) over d.
    const RotaryDerived d = rotary_derived(convention);
    RotaryConvention over_head = convention;
    over_head.base = std::pow(convention.base, static_cast<double>(d.dims) / static_cast<double>(convention.head_dim));
    if (over_head.base > 1.0) {
      found.push_back({over_head, "partial rotary's inv_freq computed over head_dim " +
                                      std::to_string(convention.head_dim) + " instead of the rotary width " +
                                      std::to_string(d.dims) + " (pie-project/pie issue 603)"});
    }
  }
  if (s.kind == RotaryScalingKind::yarn) {
    RotaryConvention flipped = convention;
    flipped.scaling.truncate = !s.truncate;
    found.push_back({flipped, s.truncate ? "YaRN's correction range left unrounded although the config does not "
                                           "set truncate false"
                                         : "YaRN's correction range rounded to whole dims although the config sets "
                                           "truncate false (gpt-oss; vllm issue 27722, sglang issue 14270)"});
  }
  if (s.kind == RotaryScalingKind::longrope) {
    const bool long_chosen = s.sequence_length > s.original_max_position;
    RotaryConvention other = convention;
    other.scaling.sequence_length = long_chosen ? 0 : s.original_max_position + 1;
    found.push_back({other, long_chosen
                                ? "LongRoPE's short factors where the sequence length (" +
                                      std::to_string(s.sequence_length) + ") exceeds original_max_position_embeddings (" +
                                      std::to_string(s.original_max_position) + ")"
                                : "LongRoPE's long factors where the sequence length (" +
                                      std::to_string(s.sequence_length) + ") is within original_max_position_embeddings (" +
                                      std::to_string(s.original_max_position) +
                                      "): chosen by the allocated context, not the sequence (llama.cpp issue 24823)"});
  }
  return found;
}

}  // namespace pecheck::validate
