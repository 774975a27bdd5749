// A named preset in a test, or a failure naming it: a test that asks for a
// preset the library no longer has must say so, not read an empty optional.
#pragma once

#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "pecheck/convention.hpp"
#include "pecheck/rotary_convention.hpp"

namespace pecheck::testing {

inline Convention preset(std::string_view name) {
  if (std::optional<Convention> found = find_preset(name)) return *found;
  throw std::runtime_error("no additive preset " + std::string(name));
}

inline RotaryConvention rotary_preset(std::string_view name) {
  if (std::optional<RotaryConvention> found = find_rotary_preset(name)) return *found;
  throw std::runtime_error("no rotary preset " + std::string(name));
}

// Every rotary preset, and the scaling rules no preset uses (linear, NTK,
// dynamic NTK) on llama2's, so that every rule of rotary_frequency.hpp runs.
inline std::vector<RotaryConvention> every_rotary_rule() {
  std::vector<RotaryConvention> all = rotary_presets();
  for (const RotaryScalingKind kind :
       {RotaryScalingKind::linear, RotaryScalingKind::ntk, RotaryScalingKind::dynamic_ntk}) {
    RotaryConvention c = rotary_preset("llama2");
    c.name = "llama2 " + std::string(to_string(kind));
    c.scaling.kind = kind;
    c.scaling.factor = 4.0;
    c.scaling.original_max_position = 4096;
    c.scaling.sequence_length = kind == RotaryScalingKind::dynamic_ntk ? 10000 : 0;
    all.push_back(c);
  }
  return all;
}

}  // namespace pecheck::testing
