// The faults of CONVENTIONS.md ("Rotary encodings (RoPE)") read from a cache
// against the convention it should hold, each with the figures that show it.
#pragma once

#include <vector>

#include "pecheck/rotary_convention.hpp"
#include "pecheck/table.hpp"
#include "pecheck/validate/rotary_validation.hpp"

namespace pecheck::validate {

// cos^2 + sin^2 against attention_factor^2: missing (1), applied twice (A^2)
// or another value.
std::vector<Hazard> attention_factor_hazards(const RotaryDetection& detection, double expected,
                                                   FormatId format);

// The fitted frequencies against the convention's: when neither its exact nor
// its float32 inv_freq fits, inv_freq rounded to bfloat16 or float16, another
// base or another scaling rule is named by the candidate that fits (`rows`:
// the cache's, for dynamic NTK's candidate at L = rows).
std::vector<Hazard> frequency_hazards(const RotaryDetection& detection, const RotaryConvention& convention,
                                            std::int64_t rows);

// Which computation explains the cache's values best, among the exact one,
// the framework's float32 one and each fault (positions, angles or inv_freq
// in bfloat16 or float16): a fault is named when its RMS distance to the
// cache is less than half that of the correct computations, with the figures.
std::vector<Hazard> computation_hazards(const Table& cos, const Table& sin, FormatId format,
                                              const RotaryDetection& detection, const RotaryConvention& convention,
                                              double attention_factor);

}  // namespace pecheck::validate
