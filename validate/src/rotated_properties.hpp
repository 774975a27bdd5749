// Properties of a rotated output checked on its own values, each against a
// bound derived from the roundings a correct kernel makes:
//   - every pair keeps its norm: | |out| - A |in| | <= E(in);
//   - relative position: out_m . out_n = A^2 sum_i in_m,i^T R((n - m) theta_i) in_n,i,
//     which depends on the positions through m - n alone, within
//     E(in_m) |out_n| + A |in_m| E(in_n).
// E(x) = (8u + 2^-21) A |x| + 2 s, u = 2^-p the output format's unit
// roundoff and s its smallest subnormal; derived in rotated_properties.cpp.
#pragma once

#include <cstdint>
#include <vector>

#include "pecheck/rotary_convention.hpp"
#include "pecheck/validate/rotated_output.hpp"
#include "rotated_pairing.hpp"

namespace pecheck::validate {

RotatedProperty norm_property(const RotatedValues& values, RotaryLayout layout, std::int64_t width, FormatId format,
                              double attention_factor);

// Up to 2048 pairs of rows; `positions` the kernel's, `inv_freq` the
// convention's exact frequencies (double).
RotatedProperty relative_position_property(const RotatedValues& values, const std::vector<std::int64_t>& positions,
                                           RotaryLayout layout, std::int64_t width, FormatId format,
                                           double attention_factor, const std::vector<double>& inv_freq,
                                           bool reversed);

}  // namespace pecheck::validate
