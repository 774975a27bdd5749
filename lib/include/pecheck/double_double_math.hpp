// Double-double arithmetic and its exp and log, for the few values computed
// once per column rather than once per entry (the frequencies of the fast
// path). u = 2^-53 below; every bound is relative to the exact result of the
// operation on the double-double inputs as given.
//
// The algorithms and their bounds are those of Joldes, Muller and Popescu,
// "Tight and rigorous error bounds for basic building blocks of double-word
// arithmetic" (ACM TOMS 44, 2017): addition of a double 2u^2 (their
// DWPlusFP), accurate addition 3u^2 (AccurateDWPlusDW), product 7u^2
// (DWTimesDW1), division by a double 3.5u^2 (DWDivFP1). The product with a
// double rounds a.lo * b once more than their FMA variant: 3u^2. All are below
// 2^-103.
#pragma once

#include <cmath>

#include "pecheck/double_double.hpp"

namespace pecheck {

inline DoubleDouble dd_negate(DoubleDouble a) { return {-a.hi, -a.lo}; }

// Accurate addition: correct to 3u^2 even under cancellation.
inline DoubleDouble dd_add(DoubleDouble a, DoubleDouble b) {
  DoubleDouble s = two_sum(a.hi, b.hi);
  const DoubleDouble t = two_sum(a.lo, b.lo);
  s.lo += t.hi;
  s = quick_two_sum(s.hi, s.lo);
  s.lo += t.lo;
  return quick_two_sum(s.hi, s.lo);
}

inline DoubleDouble dd_add(DoubleDouble a, double b) {
  DoubleDouble s = two_sum(a.hi, b);
  s.lo += a.lo;
  return quick_two_sum(s.hi, s.lo);
}

inline DoubleDouble dd_sub(DoubleDouble a, DoubleDouble b) { return dd_add(a, dd_negate(b)); }

inline DoubleDouble dd_mul(DoubleDouble a, double b) {
  DoubleDouble p = two_prod(a.hi, b);
  p.lo += a.lo * b;
  return quick_two_sum(p.hi, p.lo);
}

inline DoubleDouble dd_mul(DoubleDouble a, DoubleDouble b) {
  DoubleDouble p = two_prod(a.hi, b.hi);
  p.lo += a.hi * b.lo + a.lo * b.hi;
  return quick_two_sum(p.hi, p.lo);
}

inline DoubleDouble dd_div(DoubleDouble a, double b) {
  const double q1 = a.hi / b;
  // The remainder a - q1 b: q1 b is within a factor 2 of a.hi, so a.hi - p.hi
  // is exact (Sterbenz); then one correction digit.
  const DoubleDouble p = two_prod(q1, b);
  const double delta = (a.hi - p.hi) + (a.lo - p.lo);
  return quick_two_sum(q1, delta / b);
}

inline DoubleDouble dd_ldexp(DoubleDouble a, int exponent) {
  return {std::ldexp(a.hi, exponent), std::ldexp(a.lo, exponent)};
}

// e^x, relative error below 2^-102 for |x| <= 40 (the frequency exponents are
// at most ln(max_ts / min_ts) in size; the test measures it against a 113-bit
// exp). Results that overflow are infinity; results below the normal range of
// double lose their relative accuracy.
DoubleDouble dd_exp(DoubleDouble x);

// ln a for a > 0, absolute error below 2^-102 (relative where |ln a| >= 1),
// which is what an exponent needs: an absolute error in x is a relative error
// in e^x. Throws std::domain_error for a <= 0 or a not finite.
DoubleDouble dd_log(DoubleDouble a);

}  // namespace pecheck
