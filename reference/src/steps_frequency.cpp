#include "steps_frequency.hpp"

#include "frequency_enclosure.hpp"
#include "turn_constants.hpp"

namespace pecheck::reference {

namespace {

// Working precision of the enclosure. Its radius is below 2^(6 - bits) w
// (frequency_enclosure.cpp), the division by pi and the splitting add a few
// 2^-bits: with 200 bits everything is far below the three doubles' 2^-159.
constexpr mpfr_prec_t enclosure_bits = 200;
constexpr mpfr_prec_t error_bits = 64;

}  // namespace

// Every step is rounded in the direction that keeps `error` an upper bound:
//   value(w) within radius(w) of w (the enclosure);
//   F~ = RN(value(w) N / pi~) / 2 with pi~ = RN(pi): |pi~ - pi| <= 2^-bits pi,
//        and the division adds 2^-bits |F~|, so |F~ - F| <= radius(w) N / (2 pi)
//        + 3 * 2^-bits |F~| (bounded with 2^(3 - bits) |F~| below);
//   f0, f1, f2: F~ - f0 and F~ - f0 - f1 are exact at 200 bits (they keep F~'s
//        low bits), the rest is |F~ - f0 - f1 - f2|, computed exactly, rounded up.
StepsFrequency steps_frequency(const FrequencyTerm& term) {
  const FrequencyEnclosure w = enclose_frequency(term, enclosure_bits);
  Real pi = make_real(enclosure_bits);
  Real value = make_real(enclosure_bits);
  Real error = make_real(error_bits);
  Real part = make_real(error_bits);
  mpfr_const_pi(raw(pi), MPFR_RNDN);
  mpfr_mul_2si(raw(value), raw(w.value), table_steps_log2 - 1, MPFR_RNDN);  // exact
  mpfr_div(raw(value), raw(value), raw(pi), MPFR_RNDN);

  // The enclosure's radius, times N / (2 pi) < N / 6.
  mpfr_mul_2si(raw(error), raw(w.radius), table_steps_log2, MPFR_RNDU);
  mpfr_div_ui(raw(error), raw(error), 6, MPFR_RNDU);
  // pi's rounding and the division's.
  mpfr_abs(raw(part), raw(value), MPFR_RNDU);
  mpfr_mul_2si(raw(part), raw(part), 3 - enclosure_bits, MPFR_RNDU);
  mpfr_add(raw(error), raw(error), raw(part), MPFR_RNDU);

  return split_into_steps(value, error);
}

StepsFrequency split_into_steps(Real& value, Real& error) {
  Real part = make_real(error_bits);
  StepsFrequency f;
  f.f0 = mpfr_get_d(raw(value), MPFR_RNDN);
  mpfr_sub_d(raw(value), raw(value), f.f0, MPFR_RNDN);
  f.f1 = mpfr_get_d(raw(value), MPFR_RNDN);
  mpfr_sub_d(raw(value), raw(value), f.f1, MPFR_RNDN);
  f.f2 = mpfr_get_d(raw(value), MPFR_RNDN);
  mpfr_sub_d(raw(value), raw(value), f.f2, MPFR_RNDN);
  mpfr_abs(raw(part), raw(value), MPFR_RNDU);
  mpfr_add(raw(error), raw(error), raw(part), MPFR_RNDU);
  f.error = mpfr_get_d(raw(error), MPFR_RNDU);
  return f;
}

}  // namespace pecheck::reference
