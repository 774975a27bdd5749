// What a rotated output shows of its kernel, from the data: the pairing and
// rotary width (pair norms), then, read as a rotary cache (rotation_tables
// in rotated_pairing.hpp, detect_rotary in rotary_detection.cpp), the
// direction, the frequencies with the rule they follow, the attention factor
// and the position the angles put at POS's first.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "pecheck/validate/rotary_validation.hpp"
#include "pecheck/validate/rotated_output.hpp"
#include "rotated_pairing.hpp"

namespace pecheck::validate {

struct RotatedDetection {
  bool rotated = false;                  // a pairing keeps the norms
  std::optional<RotaryDetection> cache;  // the angles read as a cache, when POS covers a run of positions
  std::vector<Hazard> hazards;    // what detection alone shows
  std::vector<std::string> notes;        // how it decided, for the validation's notes
};

// Fills the findings' shape, format, pairing, width, direction, factor,
// frequencies, convention and offset.
RotatedDetection detect_rotated(const RotatedValues& values, const RotatedTokens& tokens, FormatId format,
                                const RotatedOptions& options, RotatedFindings& findings);

}  // namespace pecheck::validate
