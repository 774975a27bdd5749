// The oracle's first step: sin and cos of p w in double-word arithmetic, each
// with a rigorous bound on its distance from the exact value, cheap enough
// to evaluate every entry of a large table (first_step.cpp has the reasoning).
#pragma once

#include <cstdint>

#include "double_word.hpp"
#include "steps_frequency.hpp"

namespace pecheck::reference {

// |sin(p w) - sin_value| <= sin_error and the same for cos.
struct SinCosEnclosure {
  DoubleWord sin_value;
  DoubleWord cos_value;
  double sin_error = 0.0;
  double cos_error = 0.0;
};

// Whether the first step's bound holds for this position and frequency
// (positions and frequencies where no intermediate can underflow or lose
// its exactness; everything else goes to MPFR).
bool first_step_applies(std::int64_t position, const StepsFrequency& frequency);

// Requires first_step_applies(position, frequency).
SinCosEnclosure first_step_sin_cos(std::int64_t position, const StepsFrequency& frequency);

}  // namespace pecheck::reference
