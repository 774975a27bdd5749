// The multiprecision number of the oracle: Boost.Multiprecision's MPFR
// backend with precision chosen at run time.
//
// The hot path calls MPFR directly on the Boost-owned variable (raw()) so it
// can choose the precision and the rounding direction of every operation and
// never allocates per entry; Boost owns the memory and gives the tests a
// readable independent evaluation.
#pragma once

#include <mpfr.h>

#include <boost/multiprecision/mpfr.hpp>

namespace pecheck::reference {

using Real = boost::multiprecision::mpfr_float;

inline mpfr_ptr raw(Real& x) { return x.backend().data(); }
inline mpfr_srcptr raw(const Real& x) { return x.backend().data(); }

// A variable of exactly `bits` bits of precision, set to zero.
inline Real make_real(mpfr_prec_t bits) {
  Real x;
  mpfr_set_prec(raw(x), bits);
  mpfr_set_zero(raw(x), 1);
  return x;
}

}  // namespace pecheck::reference
