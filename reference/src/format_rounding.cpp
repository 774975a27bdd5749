#include "format_rounding.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace pecheck::reference {

namespace {

// Largest significand any format here needs: float64's 53 bits.
constexpr mpfr_prec_t widest_format_precision = 53;
static_assert(MPFR_PREC_MIN <= 1, "rounding to one significant bit (the largest subnormals' binade) needs MPFR_PREC_MIN <= 1");

}  // namespace

RoundingScratch::RoundingScratch() : value_(make_real(widest_format_precision)) {}

double round_to_format(mpfr_srcptr x, const Format& format, RoundingScratch& scratch) {
  if (mpfr_nan_p(x)) return std::numeric_limits<double>::quiet_NaN();
  const bool negative = mpfr_signbit(x) != 0;
  if (mpfr_inf_p(x)) return negative ? -std::numeric_limits<double>::infinity() : std::numeric_limits<double>::infinity();
  if (mpfr_zero_p(x)) return negative ? -0.0 : 0.0;

  // MPFR writes x = m 2^E with 1/2 <= |m| < 1, so 2^e <= |x| < 2^(e+1) for e = E - 1.
  const long e = mpfr_get_exp(x) - 1;
  // Below the smallest normal the quantum stays 2^(min_exponent - (precision - 1)),
  // so a value of binade e keeps only precision - (min_exponent - e) bits.
  const long lost_to_underflow = std::max(0L, static_cast<long>(format.min_exponent) - e);
  const long kept_bits = static_cast<long>(format.precision) - lost_to_underflow;
  const double smallest_subnormal = std::ldexp(1.0, format.min_exponent - (format.precision - 1));

  if (kept_bits <= 0) {
    // |x| < smallest subnormal s. kept_bits == 0 means s/2 <= |x| < s: the
    // midpoint s/2 itself is a tie between 0 (even) and s, anything above
    // rounds up to s. Below s/2 everything rounds to zero.
    const bool is_midpoint = mpfr_cmp_si_2exp(x, negative ? -1 : 1, e) == 0;
    const bool rounds_up = kept_bits == 0 && !is_midpoint;
    const double magnitude = rounds_up ? smallest_subnormal : 0.0;
    return negative ? -magnitude : magnitude;
  }

  mpfr_ptr rounded = scratch.rounded();
  mpfr_set_prec(rounded, kept_bits);  // never above the allocated 53 bits: no reallocation
  mpfr_set(rounded, x, MPFR_RNDN);    // correctly rounded, ties to even
  // Overflow: the rounded value's binade above max_exponent means it exceeds
  // the largest finite value (which is the top of binade max_exponent).
  if (mpfr_get_exp(rounded) - 1 > format.max_exponent) {
    return negative ? -std::numeric_limits<double>::infinity() : std::numeric_limits<double>::infinity();
  }
  return mpfr_get_d(rounded, MPFR_RNDN);  // exact: kept_bits <= 53 within double's range
}

}  // namespace pecheck::reference
