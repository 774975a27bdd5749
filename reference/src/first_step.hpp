// The oracle's first step: sin and cos of p w in double-word arithmetic, each
// with a rigorous bound on its distance from the exact value, cheap enough
// to evaluate every entry of a large table (first_step.cpp has the reasoning).
#pragma once

#include <cstdint>
#include <limits>
#include <vector>

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

// The frequencies of a table, column by column (a loop over them vectorises).
struct StepsFrequencies {
  explicit StepsFrequencies(const std::vector<StepsFrequency>& all);
  std::vector<double> f0, f1, f2, error;
  double smallest_f0 = std::numeric_limits<double>::infinity();
  double largest_f0 = 0.0;
  bool all_errors_finite = true;
};

// The enclosures of a whole row, column by column: entry i is frequency i's.
struct RowEnclosures {
  std::vector<double> sin_hi, sin_lo, sin_error, cos_hi, cos_lo, cos_error;
  void resize(std::size_t count);
};

// Whether first_step_applies to this position and every frequency.
bool first_step_applies_to_row(std::int64_t position, const StepsFrequencies& frequencies);

// first_step_sin_cos for every frequency, the same bits; requires first_step_applies_to_row.
void first_step_row(std::int64_t position, const StepsFrequencies& frequencies, RowEnclosures& out);

}  // namespace pecheck::reference
