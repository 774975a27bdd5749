// A computation model's angles as the first step sees them (rotated_steps.hpp):
// RN_angle(p_r inv_freq_i), p_r the position rounded in the model's format,
// as its odd integer m and the frequency 2^e N / (2 pi). The rotary tiers
// need them for every entry of a model's cache row; model_row_angles gives a
// whole row in one loop of plain operations where model_first_step_angle
// takes one entry through the general helpers (round_word,
// binary_angle_steps, first_step_applies), and gives the same bits.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>

#include "first_step.hpp"
#include "pecheck/format.hpp"

namespace pecheck::reference {

// Entry i of a model's row: the angle RN_angle(rounded_position inv_freq)
// (the exact product of two doubles rounded once) in the first step's terms.
// False when the first step does not apply to it (a zero angle, an odd
// integer past 2^31, a frequency the first step rejects).
bool model_first_step_angle(double rounded_position, double inv_freq, const Format& angle_format,
                            std::int64_t& steps_position, StepsFrequency& steps);

// Every entry of a row at once: positions[i] and entry i of `frequencies`
// (its vectors of inv_freq.size() entries) as model_first_step_angle gives
// them, applies[i] whether it applies; where it does not, the harmless
// stand-in the double tier is run on (position 1, frequency 1 step) and
// applies[i] = 0. Entries outside the plain path's range (an angle format of
// more than 26 bits, a product outside the format's normal binades) go
// through model_first_step_angle.
void model_row_angles(double rounded_position, std::span<const double> inv_freq, const Format& angle_format,
                      double* positions, StepsFrequencies& frequencies, unsigned char* applies);

}  // namespace pecheck::reference
