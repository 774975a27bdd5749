#include "frequency_enclosure.hpp"

#include <cmath>
#include <string>

namespace pecheck::reference {

namespace {

void require_positive_finite(const Convention& convention, const char* field, double value) {
  if (!(std::isfinite(value) && value > 0.0)) {
    throw ConventionError("convention '" + convention.name + "': frequency " + field + " is " +
                          std::to_string(value) + ", expected a positive finite number");
  }
}

// Width of the enclosure's radius variable: it only has to bound, not to be precise.
constexpr mpfr_prec_t radius_bits = 64;

}  // namespace

void check_frequency_rule(const Convention& convention) {
  const FrequencyRule& rule = convention.frequency;
  switch (rule.kind) {
    case FrequencyRuleKind::paper: require_positive_finite(convention, "base", rule.base); break;
    case FrequencyRuleKind::timescale:
      require_positive_finite(convention, "min_timescale", rule.min_timescale);
      require_positive_finite(convention, "max_timescale", rule.max_timescale);
      break;
    case FrequencyRuleKind::timestep:
      require_positive_finite(convention, "max_period", rule.max_period);
      require_positive_finite(convention, "scale", rule.scale);
      break;
  }
}

// Why directed rounding instead of a hand-propagated relative error: every
// MPFR operation is correctly rounded in the direction asked for, and each
// step below is monotone in its input, so rounding the lower end down and the
// upper end up through the chain encloses the exact w with no further
// argument. With u = 2^(1-bits) (one ulp, the most a directed rounding moves)
// and r = numerator/denominator, the width is about
//   ratio: u;  ln: u + u |ln r|;  times k/m: (k/m)(u + u |ln r|) + u (k/m)|ln r|;
//   exp: that plus u;  divisor: u more;  multiplier (a timestep rule's scale): u more,
// relative to w: for every preset k/m <= 1 and |ln r| = ln 10^4 ~ 9.2, so the
// width is below 2^5 u = 2^(6-bits) times w. The caller picks bits so that
// even |p| < 2^24 times this stays far below its working precision.
FrequencyEnclosure enclose_frequency(const FrequencyTerm& term, mpfr_prec_t bits) {
  if (term.k < 0 || term.m < 1) {
    throw ConventionError("frequency exponent k/m = " + std::to_string(term.k) + "/" + std::to_string(term.m) +
                          " is invalid: expected k >= 0 and m >= 1");
  }
  Real lower = make_real(bits);
  Real upper = make_real(bits);

  // ratio = numerator / denominator, both positive.
  mpfr_set_d(raw(lower), term.log_numerator, MPFR_RNDD);
  mpfr_div_d(raw(lower), raw(lower), term.log_denominator, MPFR_RNDD);
  mpfr_set_d(raw(upper), term.log_numerator, MPFR_RNDU);
  mpfr_div_d(raw(upper), raw(upper), term.log_denominator, MPFR_RNDU);
  // ln is increasing.
  mpfr_log(raw(lower), raw(lower), MPFR_RNDD);
  mpfr_log(raw(upper), raw(upper), MPFR_RNDU);
  // t = (k ln r) / m is increasing in ln r for k >= 0, m >= 1.
  mpfr_mul_si(raw(lower), raw(lower), static_cast<long>(term.k), MPFR_RNDD);
  mpfr_div_si(raw(lower), raw(lower), static_cast<long>(term.m), MPFR_RNDD);
  mpfr_mul_si(raw(upper), raw(upper), static_cast<long>(term.k), MPFR_RNDU);
  mpfr_div_si(raw(upper), raw(upper), static_cast<long>(term.m), MPFR_RNDU);
  // w = exp(-t) / divisor is decreasing in t: the smallest t gives the largest w.
  mpfr_swap(raw(lower), raw(upper));
  mpfr_neg(raw(lower), raw(lower), MPFR_RNDN);  // exact
  mpfr_neg(raw(upper), raw(upper), MPFR_RNDN);
  mpfr_exp(raw(lower), raw(lower), MPFR_RNDD);
  mpfr_exp(raw(upper), raw(upper), MPFR_RNDU);
  mpfr_div_d(raw(lower), raw(lower), term.divisor, MPFR_RNDD);
  mpfr_div_d(raw(upper), raw(upper), term.divisor, MPFR_RNDU);
  // w times a positive multiplier is increasing in w.
  if (!(std::isfinite(term.multiplier) && term.multiplier > 0.0)) {
    throw ConventionError("frequency multiplier " + std::to_string(term.multiplier) +
                          " is invalid: expected a positive finite number");
  }
  mpfr_mul_d(raw(lower), raw(lower), term.multiplier, MPFR_RNDD);
  mpfr_mul_d(raw(upper), raw(upper), term.multiplier, MPFR_RNDU);

  FrequencyEnclosure enclosure{make_real(bits), make_real(radius_bits)};
  mpfr_set(raw(enclosure.value), raw(upper), MPFR_RNDN);  // exact: same precision
  mpfr_sub(raw(enclosure.radius), raw(upper), raw(lower), MPFR_RNDU);
  return enclosure;
}

}  // namespace pecheck::reference
