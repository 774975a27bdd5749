#include "frequency_turns.hpp"

#include <bit>
#include <cmath>
#include <sstream>

#include "fast_constants.hpp"
#include "pecheck/double_double_math.hpp"

namespace pecheck {

namespace {

[[noreturn]] void throw_bad_rule(const Convention& convention, const FrequencyTerm& term, const char* why) {
  std::ostringstream message;
  message << "convention '" << convention.name << "': the frequency rule (ln(" << term.log_numerator << " / "
          << term.log_denominator << "), divisor " << term.divisor << ") " << why;
  throw ConventionError(message.str());
}

// The top 29 significant bits of x (truncated toward zero): clears the low 24
// of the 52 stored significand bits.
double top_29_bits(double x) {
  constexpr std::uint64_t low_24_bits = (std::uint64_t{1} << 24) - 1;
  return std::bit_cast<double>(std::bit_cast<std::uint64_t>(x) & ~low_24_bits);
}

// ln(numerator) - ln(denominator), each logarithm to 2^-102 absolute. A
// rule's terms share one numerator and denominator (vaswani's are all
// ln 10000 - ln 1), so the last pair's is kept: it saves two of the three
// double-double exponentials a frequency costs, about 0.6 ms of a width-1024
// table's start.
DoubleDouble log_ratio_of(double numerator, double denominator) {
  thread_local double last_numerator = 0.0;  // never a valid (positive) argument
  thread_local double last_denominator = 0.0;
  thread_local DoubleDouble last{};
  if (numerator != last_numerator || denominator != last_denominator) {
    last = dd_sub(dd_log(DoubleDouble{numerator, 0.0}), dd_log(DoubleDouble{denominator, 0.0}));
    last_numerator = numerator;
    last_denominator = denominator;
  }
  return last;
}

}  // namespace

DoubleDouble frequency_in_turns(const Convention& convention, const FrequencyTerm& term) {
  const bool positive =
      term.log_numerator > 0.0 && term.log_denominator > 0.0 && term.divisor > 0.0 && term.multiplier > 0.0;
  const bool finite = std::isfinite(term.log_numerator) && std::isfinite(term.log_denominator) &&
                      std::isfinite(term.divisor) && std::isfinite(term.multiplier);
  if (!positive || !finite) throw_bad_rule(convention, term, "needs finite positive numbers");
  const double log_ratio_estimate = std::log(term.log_numerator) - std::log(term.log_denominator);
  if (!(std::fabs(log_ratio_estimate) <= 600.0)) throw_bad_rule(convention, term, "spans more than e^600");

  // x = -(k / m) ln(numerator / denominator). The logarithms carry an
  // absolute error below 2^-102, k and m are exact doubles, and |x| <= 600:
  // x is known to about |x| 2^-104 + 2^-102, which is the relative error of e^x.
  const DoubleDouble log_ratio = log_ratio_of(term.log_numerator, term.log_denominator);
  const DoubleDouble x =
      dd_negate(dd_div(dd_mul(log_ratio, static_cast<double>(term.k)), static_cast<double>(term.m)));
  if (!(std::fabs(x.hi) <= 700.0)) throw_bad_rule(convention, term, "gives an exponent past e^700");
  // The multiplier (the timestep rule's scale, a double) adds one more
  // double-double rounding, about 2^-104 relative.
  const DoubleDouble w = dd_mul(dd_div(dd_exp(x), term.divisor), term.multiplier);
  const DoubleDouble f = dd_mul(w, DoubleDouble{fast_constants::inv_two_pi_hi, fast_constants::inv_two_pi_lo});
  if (!std::isnormal(f.hi)) throw_bad_rule(convention, term, "gives a frequency outside the range of double");
  return f;
}

TurnsSplit split_for_positions(DoubleDouble f) {
  // e is the exponent of f.hi. f1: the top 29 bits of f.hi, so s = f.hi - f1
  // (its low 24 bits) is exact, a multiple of 2^(e-52) below 2^(e-28).
  // f2: the top 29 bits of v = fl(s + f.lo), so |v - f2| < 2^(e-56).
  // s - f2 is exact: if s = 0 it is -f2; otherwise |v| >= 2^(e-53) (as
  // |f.lo| <= 2^(e-53)), f2 is a multiple of 2^(e-81), and
  // |s - f2| <= |f.lo| + |v - f2| + rounding < 2^(e-52): 29 bits at most.
  // f3 = (s - f2) + f.lo rounds once; |f3| < 2^(e-56), so f1 + f2 + f3 is
  // f.hi + f.lo to 2^(e-109) <= 2^-109 |f|.
  TurnsSplit split;
  split.f1 = top_29_bits(f.hi);
  const double s = f.hi - split.f1;
  split.f2 = top_29_bits(s + f.lo);
  split.f3 = (s - split.f2) + f.lo;
  return split;
}

}  // namespace pecheck
