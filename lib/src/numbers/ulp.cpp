#include "pecheck/ulp.hpp"

#include <algorithm>
#include <bit>
#include <cstdint>
#include <cmath>
#include <limits>

namespace pecheck {

namespace {

constexpr double infinity = std::numeric_limits<double>::infinity();

bool is_zero(DoubleDouble x) { return x.hi == 0.0 && x.lo == 0.0; }

// floor(log2 |hi + lo|) for a finite nonzero hi + lo.
//
// s = fl(hi + lo) lies in the same closed binade as the exact sum
// (rounding is monotonic and powers of two are doubles), so s's exponent is
// the answer unless s is a power of two, the one value two binades share.
// Then t = hi + lo - s (exact, two-sum) says which side the sum is on: it is
// below |s| exactly when t and s have opposite signs. This is the case
// hi = 2^k, lo < 0 of an exact value just under a power of two.
// An exact value within half an ulp of the double range (a float64
// overflow threshold) makes fl(hi + lo) overflow; it is in hi's binade.
int exact_binade(DoubleDouble x) {
  const DoubleDouble sum = two_sum(x.hi, x.lo);
  if (!std::isfinite(sum.hi)) return std::ilogb(x.hi);
  const int exponent = std::ilogb(sum.hi);
  const bool power_of_two = std::fabs(sum.hi) == std::ldexp(1.0, exponent);
  const bool below = sum.lo != 0.0 && std::signbit(sum.lo) != std::signbit(sum.hi);
  return power_of_two && below ? exponent - 1 : exponent;
}

}  // namespace

double ulp_of(DoubleDouble exact, const Format& format) {
  // A plain normal double (what the double tier's exact values and the
  // angles of an allowance are): its binade and the power of two read from
  // the bits, the same values as below without a library call.
  if (exact.lo == 0.0) {
    const auto bits = std::bit_cast<std::uint64_t>(exact.hi);
    const int field = static_cast<int>((bits >> 52) & 0x7ff);
    const int quantum = std::max(field - 1023, format.min_exponent) - (format.precision - 1);
    if (field != 0 && field != 0x7ff && quantum >= -1022) {
      return std::bit_cast<double>(static_cast<std::uint64_t>(quantum + 1023) << 52);
    }
  }
  if (std::isnan(exact.hi) || std::isnan(exact.lo)) return std::numeric_limits<double>::quiet_NaN();
  if (std::isinf(exact.hi)) return infinity;
  if (is_zero(exact)) return smallest_subnormal(format);
  // Below the smallest normal the spacing stays that of the lowest binade:
  // the ulp is floored at the smallest subnormal.
  const int binade = std::max(exact_binade(exact), format.min_exponent);
  return std::ldexp(1.0, binade - (format.precision - 1));
}

UlpError ulp_error(double computed, DoubleDouble exact, const Format& format) {
  const bool computed_nan = std::isnan(computed);
  const bool exact_nan = std::isnan(exact.hi) || std::isnan(exact.lo);
  if (computed_nan || exact_nan) {
    if (computed_nan && exact_nan) return {Mismatch::none, 0.0};
    // ulps is meaningless here; infinity makes a max over ulps that forgets
    // to look at the mismatch fail rather than pass.
    return {Mismatch::nan, infinity};
  }
  if (std::isinf(computed) || std::isinf(exact.hi)) {
    if (computed == exact.hi) return {Mismatch::none, 0.0};
    return {Mismatch::infinity, infinity};
  }
  if (computed == 0.0 && is_zero(exact)) {
    const bool signs_differ = std::signbit(computed) != std::signbit(exact.hi);
    return {signs_differ ? Mismatch::signed_zero : Mismatch::none, 0.0};
  }

  // computed - hi is exact whenever it matters: when computed is within a
  // factor of two of hi (Sterbenz), which covers every error up to 2^(p-2)
  // ulps of a normal exact value. Farther away the subtraction may round, by
  // a relative 2^-53 of an error already of order |hi|: the figure is still
  // right to 15 digits. Subtracting lo then rounds once more, relatively
  // 2^-53 again, which is 2^-54 ulp for an error of half an ulp: no verdict
  // at a budget of 0.5 or 1 ulp can turn on it. The differences overflow only
  // when the error itself is beyond the double range: infinity ulps is honest.
  const double difference = (computed - exact.hi) - exact.lo;
  // Dividing by a power of two is exact unless the quotient underflows, i.e.
  // unless the error is below 2^-1022 ulps.
  return {Mismatch::none, std::fabs(difference) / ulp_of(exact, format)};
}

double absolute_error(double computed, DoubleDouble exact) {
  if (!std::isfinite(computed) || !std::isfinite(exact.hi) || !std::isfinite(exact.lo)) return infinity;
  return std::fabs((computed - exact.hi) - exact.lo);
}

std::string_view to_string(Mismatch mismatch) {
  switch (mismatch) {
    case Mismatch::none:
      return "none";
    case Mismatch::signed_zero:
      return "signed_zero";
    case Mismatch::nan:
      return "nan";
    case Mismatch::infinity:
      return "infinity";
  }
  return "unknown";
}

}  // namespace pecheck
