// A validation's hazards as text, for a failure message.
#pragma once

#include <string>

#include "pecheck/validate/validation.hpp"

namespace pecheck::validate {

inline std::string hazard_list(const Validation& result) {
  std::string text;
  for (const Hazard& h : result.hazards) text += std::string(to_string(h.kind)) + ": " + h.evidence + "\n";
  return text.empty() ? "no hazard" : text;
}

}  // namespace pecheck::validate
