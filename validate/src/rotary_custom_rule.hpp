// A rotary cache whose frequencies no preset or config rule explains within
// their uncertainty (real code has rules no preset has: half of the pairs at
// frequency 0, a geometric ladder between two set frequencies): the rule is
// the fitted frequencies themselves, each snapped to the float32 value a
// tensor most likely held when it lies within 3 sigma of one, and to 0 when 0
// lies within 3 sigma. The cache is then compared against that ladder, and
// said to be a custom rule, instead of being misjudged against the nearest preset.
#pragma once

#include <string>

#include "pecheck/rotary_convention.hpp"
#include "pecheck/validate/rotary_findings.hpp"

namespace pecheck::validate {

RotaryConvention fitted_rule(const RotaryDetection& detection);

// "inv_freq 1, 0.562341, ... (k pairs at frequency 0)", 6 significant digits each.
std::string ladder_text(const RotaryConvention& fitted);

}  // namespace pecheck::validate
