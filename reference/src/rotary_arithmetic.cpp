#include "rotary_arithmetic.hpp"

#include <cmath>
#include <numbers>
#include <stdexcept>
#include <string>

namespace pecheck::reference {

namespace {

// Why 2^(16 - P) bounds NearestArithmetic's relative error
// ========================================================
// Each MPFR operation is correctly rounded at P bits: a relative error of at
// most 2^-P on its exact result from its computed inputs. The rule
// (rotary_frequency.hpp) chains at most 12 operations. Relative input errors
// propagate through x*y, x/y with factor 1 each; through pow(x, y) =
// exp(y ln x) as |y ln x| <= 2i/d * ln(base) < 16.2 for any base below 10^7
// (exponent y = 2i/d < 1, itself within 2^-P); through a sum of positive
// terms with factor 1. The subtractions that cancel are bounded: yarn's
// ramp (i - low)/(high - low) has exact integer operands (truncate), and
// 1 - ramp, 1 - weight feed a convex combination w (r/f + (1 - r)) whose
// relative error is at most the absolute error of r times f (f <= 2^8 for
// every factor pecheck accepts without a note: 64 in the presets); llama3's
// smooth s = (orig / wavelength - low) / (high - low) is within
// 2^(3-P) high / (high - low) absolutely, and enters w (1/f + s (1 - 1/f)),
// relative error at most that times f. Summing: below 2^-P (12 + 3 * 16.2 +
// 2^3 * 2 * 8) < 2^(8.1 - P); 2^(16 - P) leaves a factor 2^7.9 for factors up
// to 2^15. The test rotary_reference_test compares P with 4P evaluations.

// The rounding of an MPFR operation's exact result to `format`: the operation
// at P bits rounded to nearest either is exact (ternary 0), or its exact
// result lies strictly between the neighbours of the P-bit result, and the
// rounding is decided when both neighbours round alike; else P doubles
// (Ziv). Inputs are doubles, so every result is a finite binary number or an
// irrational and the loop ends.
template <class Operation>
double correctly_rounded_operation(Operation operation, const Format& format) {
  RoundingScratch scratch;
  for (mpfr_prec_t precision = 64; precision <= max_working_bits; precision *= 2) {
    Real result = make_real(precision);
    const int ternary = operation(raw(result));
    if (ternary == 0) return round_to_format(raw(result), format, scratch);
    Real below = make_real(precision);
    Real above = make_real(precision);
    mpfr_set(raw(below), raw(result), MPFR_RNDN);
    mpfr_set(raw(above), raw(result), MPFR_RNDN);
    mpfr_nextbelow(raw(below));
    mpfr_nextabove(raw(above));
    const double low = round_to_format(raw(below), format, scratch);
    const double high = round_to_format(raw(above), format, scratch);
    if (low == high && std::signbit(low) == std::signbit(high)) return low;
  }
  throw std::logic_error("rotary reference: an operation's rounding is undecided at " +
                         std::to_string(max_working_bits) + " bits (this is a bug)");
}

Real from_double(double x, mpfr_prec_t precision) {
  Real r = make_real(std::max<mpfr_prec_t>(precision, 64));
  mpfr_set_d(raw(r), x, MPFR_RNDN);  // exact: 53 bits fit
  return r;
}

}  // namespace

NearestArithmetic::Value NearestArithmetic::number(double x) const { return from_double(x, precision_); }
NearestArithmetic::Value NearestArithmetic::integer(std::int64_t n) const {
  Real r = make_real(std::max<mpfr_prec_t>(precision_, 64));
  mpfr_set_si(raw(r), static_cast<long>(n), MPFR_RNDN);  // exact: 64 bits
  return r;
}

#define PECHECK_NEAREST_BINARY(name, call)                                                 \
  NearestArithmetic::Value NearestArithmetic::name(const Value& x, const Value& y) const { \
    Real r = make_real(precision_);                                                        \
    call(raw(r), raw(x), raw(y), MPFR_RNDN);                                               \
    return r;                                                                              \
  }
PECHECK_NEAREST_BINARY(add, mpfr_add)
PECHECK_NEAREST_BINARY(sub, mpfr_sub)
PECHECK_NEAREST_BINARY(mul, mpfr_mul)
PECHECK_NEAREST_BINARY(div, mpfr_div)
PECHECK_NEAREST_BINARY(pow, mpfr_pow)
#undef PECHECK_NEAREST_BINARY

NearestArithmetic::Value NearestArithmetic::two_pi() const {
  Real r = make_real(precision_);
  mpfr_const_pi(raw(r), MPFR_RNDN);
  mpfr_mul_2ui(raw(r), raw(r), 1, MPFR_RNDN);  // exact
  return r;
}

#define PECHECK_FORMAT_BINARY(name, call)                                  \
  FormatArithmetic::Value FormatArithmetic::name(Value x, Value y) const { \
    return correctly_rounded_operation(                                    \
        [&](mpfr_ptr out) {                                                \
          const Real a = from_double(x, 64);                               \
          const Real b = from_double(y, 64);                               \
          return call(out, raw(a), raw(b), MPFR_RNDN);                     \
        },                                                                 \
        format_);                                                          \
  }
PECHECK_FORMAT_BINARY(add, mpfr_add)
PECHECK_FORMAT_BINARY(sub, mpfr_sub)
PECHECK_FORMAT_BINARY(mul, mpfr_mul)
PECHECK_FORMAT_BINARY(div, mpfr_div)
PECHECK_FORMAT_BINARY(pow, mpfr_pow)
#undef PECHECK_FORMAT_BINARY

FormatArithmetic::Value FormatArithmetic::two_pi() const {
  return pecheck::round_to_format(2.0 * std::numbers::pi, format_);  // 2 * math.pi is exact in double
}

std::optional<double> decide_rounding(mpfr_srcptr value, mpfr_srcptr error, const Format& format) {
  const mpfr_prec_t precision = mpfr_get_prec(value) + 8;
  Real lower = make_real(precision);
  Real upper = make_real(precision);
  mpfr_sub(raw(lower), value, error, MPFR_RNDD);
  mpfr_add(raw(upper), value, error, MPFR_RNDU);
  RoundingScratch scratch;
  const double low = round_to_format(raw(lower), format, scratch);
  const double high = round_to_format(raw(upper), format, scratch);
  if (low != high || std::signbit(low) != std::signbit(high)) return std::nullopt;
  return low;
}

std::optional<DoubleDouble> decide_exact_pair(mpfr_srcptr value, mpfr_srcptr error) {
  static const Format& float64 = format_of(FormatId::float64);
  const std::optional<double> hi = decide_rounding(value, error, float64);
  if (!hi) return std::nullopt;
  // x - hi: value - hi is exact at the value's precision plus 64 bits, since
  // hi is within half an ulp of it; the error is unchanged.
  Real rest = make_real(mpfr_get_prec(value) + 64);
  mpfr_sub_d(raw(rest), value, *hi, MPFR_RNDN);
  const std::optional<double> lo = decide_rounding(raw(rest), error, float64);
  if (!lo) return std::nullopt;
  return DoubleDouble{*hi, *lo};
}

}  // namespace pecheck::reference
