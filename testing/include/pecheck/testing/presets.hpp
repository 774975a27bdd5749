// A named preset in a test, or a failure naming it: a test that asks for a
// preset the library no longer has must say so, not read an empty optional.
#pragma once

#include <stdexcept>
#include <string>
#include <string_view>

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

}  // namespace pecheck::testing
