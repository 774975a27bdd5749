// Rounding a multiprecision value to a target format, once.
//
// This is the only rounding the oracle performs: from the MPFR value straight
// to the format (round to nearest, ties to even, gradual underflow, overflow
// to infinity), never through float64 or float32 first.
#pragma once

#include "pecheck/format.hpp"
#include "real.hpp"

namespace pecheck::reference {

// Scratch space for the roundings below, so that rounding allocates nothing.
class RoundingScratch {
 public:
  RoundingScratch();
  mpfr_ptr rounded() { return raw(value_); }

 private:
  Real value_;  // at most 53 bits: the format's significand
};

// x rounded to the nearest value of `format`, ties to even, as a double (every
// value of every format is a double). NaN stays NaN; zeros keep their sign; a
// result beyond the largest finite value is infinity of x's sign.
double round_to_format(mpfr_srcptr x, const Format& format, RoundingScratch& scratch);

}  // namespace pecheck::reference
