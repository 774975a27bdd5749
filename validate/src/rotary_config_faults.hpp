// Misreadings of a config seen in real engines, as conventions: the
// convention a cache should hold with one field read wrong. A cache whose
// frequencies one of them explains is named by that misreading rather than by
// the nearest preset.
#pragma once

#include <string>
#include <vector>

#include "pecheck/rotary_convention.hpp"

namespace pecheck::validate {

struct ConfigMisreading {
  RotaryConvention convention;  // what the engine built
  std::string what;             // the misreading and where it was reported
};

// For the convention's rule: its rope_scaling ignored (transformers issue
// 32330, unsloth issue 6197); YaRN's correction range rounded although
// truncate is false, or not rounded although it is (vllm issue 27722, sglang
// issue 14270); LongRoPE's other factor set (chosen by the allocated context,
// llama.cpp issue 24823); partial rotary's exponent over head_dim instead of
// the rotary width (pie-project/pie issue 603).
std::vector<ConfigMisreading> config_misreadings(const RotaryConvention& convention);

}  // namespace pecheck::validate
