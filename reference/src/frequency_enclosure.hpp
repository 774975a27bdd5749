// A rigorous enclosure of one frequency w_i at a chosen precision.
#pragma once

#include "pecheck/convention.hpp"
#include "real.hpp"

namespace pecheck::reference {

// |w_i - value| <= radius, with value held at the requested precision.
struct FrequencyEnclosure {
  Real value;
  Real radius;
};

// Throws ConventionError, naming the field, when the convention's frequency
// rule has no real value (a base or timescale that is not a positive finite number).
void check_frequency_rule(const Convention& convention);

// Encloses w = exp(-(k/m) ln(log_numerator / log_denominator)) / divisor
// using `bits` bits of precision for every operation.
FrequencyEnclosure enclose_frequency(const FrequencyTerm& term, mpfr_prec_t bits);

}  // namespace pecheck::reference
