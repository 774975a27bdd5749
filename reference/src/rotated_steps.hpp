// The frequencies of the rotated-output oracle in table steps (the first
// step's unit, steps_frequency.hpp), for the two kinds of angle it rotates by:
//   - the exact angle p * inv_freq_i, inv_freq_i the real of the rotary
//     frequency rule (rotary_frequency.hpp): F_i = inv_freq_i N / (2 pi);
//   - a computation model's binary angle a = m 2^e (m an odd integer): the
//     first step sees position m and frequency 2^e N / (2 pi), so one
//     enclosure of N / (2 pi) serves every angle (scaled by a power of two).
#pragma once

#include <cstdint>
#include <optional>

#include "pecheck/rotary_convention.hpp"
#include "steps_frequency.hpp"

namespace pecheck::reference {

// |F_i - (f0 + f1 + f2)| <= error, rigorous (derived in rotated_steps.cpp).
StepsFrequency rotary_steps_frequency(const RotaryConvention& convention, const RotaryDerived& derived,
                                      std::int64_t frequency);

// N / (2 pi) in steps per radian, computed once: a binary angle m 2^e has
// frequency 2^e times it (binary_angle_steps).
const StepsFrequency& steps_per_radian();

// A binary angle as the first step's (position, frequency): angle = position
// * w exactly with w = 2^e. Nothing when the angle is zero or not finite, or
// its odd integer m needs more than 31 bits (float64 angles: MPFR's business).
struct BinaryAngleSteps {
  std::int64_t position = 0;
  StepsFrequency frequency;
};
std::optional<BinaryAngleSteps> binary_angle_steps(double angle);

}  // namespace pecheck::reference
