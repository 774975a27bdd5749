// A frequency in table steps per position for the first step: F = w N / (2 pi),
// with N = table_steps, as an unevaluated sum of three doubles.
#pragma once

#include "pecheck/convention.hpp"
#include "real.hpp"

namespace pecheck::reference {

struct StepsFrequency {
  double f0 = 0.0, f1 = 0.0, f2 = 0.0;  // |F - (f0 + f1 + f2)| <= error
  double error = 0.0;
};

// From the rigorous MPFR enclosure of w (frequency_enclosure.cpp): about
// 2^-150 |F| wide, so that even |p| = 2^31 times it stays near 2^-119 steps.
StepsFrequency steps_frequency(const FrequencyTerm& term);

// `value` within `error` of F, split into f0 + f1 + f2 with the rest added to
// the error: each subtraction keeps value's low bits (exact at its
// precision), the remainder is taken exactly and rounded up. Consumes value.
StepsFrequency split_into_steps(Real& value, Real& error);

}  // namespace pecheck::reference
