#include "rotary_config_faults.hpp"

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
