// Looking up a validation's hazards in tests: the one of a kind, and all of
// them as text for a failure message.
#pragma once

#include <algorithm>
#include <string>

#include "pecheck/validate/validation.hpp"

namespace pecheck::validate {

inline const Hazard* find_hazard(const ValidationResult& result, HazardKind kind) {
  const auto found =
      std::find_if(result.hazards.begin(), result.hazards.end(), [&](const Hazard& h) { return h.kind == kind; });
  return found == result.hazards.end() ? nullptr : &*found;
}

inline std::string hazard_list(const ValidationResult& result) {
  std::string text;
  for (const Hazard& h : result.hazards) text += std::string(to_string(h.kind)) + ": " + h.evidence + "\n";
  return text.empty() ? "no hazard" : text;
}

}  // namespace pecheck::validate
