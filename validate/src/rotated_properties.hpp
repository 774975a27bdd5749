// Properties of a rotated output checked on its own values, each against a
// bound derived from the roundings a correct kernel makes:
//   - every pair keeps its norm: | |out| - A |in| | <= E(in);
//   - relative position, pair by pair (q_m . k_n is their sum):
//     out_m,i . out_n,i = A^2 in_m,i^T R((n - m) theta_i) in_n,i, which depends
//     on the positions through m - n alone, within E(in_m,i) |out_n,i| + A |in_m,i| E(in_n,i)
//     + A^2 |in_m,i| |in_n,i| 5 * 2^-24 (m + n) theta_i (float32 angles, as every model has).
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

// Up to 1024 pairs of rows; `positions` the kernel's, `inv_freq` the
// convention's exact frequencies (double).
RotatedProperty relative_position_property(const RotatedValues& values, const std::vector<std::int64_t>& positions,
                                           RotaryLayout layout, std::int64_t width, FormatId format,
                                           double attention_factor, const std::vector<double>& inv_freq, bool reversed);

}  // namespace pecheck::validate
