// The argument reduction both cheap tiers of the oracle share: p w in table
// steps, split exactly into a table point n and a small remainder y
// (first_step.cpp has the reasoning and the bound).
#pragma once

#include <cmath>

#include "double_word.hpp"

namespace pecheck::reference {

struct ReducedArgument {
  double n = 0.0;        // the nearest integer to p f0: table point n mod table_steps
  DoubleWord y;          // p F - n in steps, |y| <= 1/2 + 2^-12
  double y_error = 0.0;  // |y - (p F - n)| <= y_error, F's own error included
};

// Rounds to the nearest integer, ties to even, for |x| < 2^51: adding and
// subtracting 1.5 * 2^52 leaves no fraction bits (plain additions, which
// vectorise where std::nearbyint may not).
[[gnu::always_inline]] inline double nearest_integer(double x) {
  constexpr double shifter = 0x1.8p52;
  return (x + shifter) - shifter;
}

// Requires |p| <= 2^31, |p f0| <= 2^40 (first_step_applies); p an integer.
[[gnu::always_inline]] inline ReducedArgument reduce_argument(double p, double f0, double f1, double f2,
                                                              double f_error) {
  const DoubleWord a = exact_product(p, f0);
  const double n = nearest_integer(a.hi);
  const double r0 = a.hi - n;
  const DoubleWord b = exact_product(p, f1);
  const double c0 = p * f2;
  const DoubleWord s1 = exact_sum(r0, a.lo);
  const DoubleWord s2 = exact_sum(s1.hi, b.hi);
  const double lows = ((s1.lo + s2.lo) + b.lo) + c0;
  const DoubleWord y = exact_sum(s2.hi, lows);
  const double y_error = std::fabs(p) * f_error + 0x1p-52 * std::fabs(c0) +
                         0x1p-51 * (std::fabs(s1.lo) + std::fabs(s2.lo) + std::fabs(b.lo) + std::fabs(c0));
  return {n, y, y_error};
}

}  // namespace pecheck::reference
