#include "rotated_steps.hpp"

#include <bit>
#include <cmath>
#include <cstdint>

#include "pecheck/rotary_frequency.hpp"
#include "rotary_arithmetic.hpp"
#include "turn_constants.hpp"

namespace pecheck::reference {

namespace {

// The rule at 256 bits is within 2^(16 - 256) relative of the exact
// inv_freq_i (rotary_arithmetic.cpp); the steps conversion below adds a few
// 2^-256: far below the three doubles' 2^-159, as steps_frequency.cpp's.
constexpr mpfr_prec_t rule_bits = 256;
constexpr mpfr_prec_t error_bits = 64;

// F~ = RN(w~ N / pi~) / 2 with pi~ = RN(pi): pi's rounding and the division
// add at most 3 * 2^-bits |F~| (bounded by 2^(3 - bits) |F~|); w~'s own
// relative error `w_relative` carries over to F unchanged.
StepsFrequency to_steps(const Real& w, mpfr_srcptr w_relative) {
  Real pi = make_real(rule_bits);
  Real value = make_real(rule_bits);
  Real error = make_real(error_bits);
  Real part = make_real(error_bits);
  mpfr_const_pi(raw(pi), MPFR_RNDN);
  mpfr_mul_2si(raw(value), raw(w), table_steps_log2 - 1, MPFR_RNDN);  // exact
  mpfr_div(raw(value), raw(value), raw(pi), MPFR_RNDN);
  mpfr_abs(raw(error), raw(value), MPFR_RNDU);
  mpfr_mul(raw(error), raw(error), w_relative, MPFR_RNDU);
  mpfr_mul_2si(raw(error), raw(error), 1, MPFR_RNDU);  // |F| <= 2 |F~|, generously
  mpfr_abs(raw(part), raw(value), MPFR_RNDU);
  mpfr_mul_2si(raw(part), raw(part), 3 - rule_bits, MPFR_RNDU);
  mpfr_add(raw(error), raw(error), raw(part), MPFR_RNDU);
  return split_into_steps(value, error);
}

}  // namespace

const StepsFrequency& steps_per_radian() {
  static const StepsFrequency f = [] {
    Real one = make_real(rule_bits);
    mpfr_set_ui(raw(one), 1, MPFR_RNDN);
    Real zero = make_real(error_bits);
    mpfr_set_zero(raw(zero), 1);
    return to_steps(one, raw(zero));
  }();
  return f;
}

StepsFrequency rotary_steps_frequency(const RotaryConvention& convention, const RotaryDerived& derived,
                                      std::int64_t frequency) {
  NearestArithmetic arithmetic(rule_bits);
  const Real w = rotary_inv_freq(convention, derived, frequency, arithmetic);
  Real relative = make_real(error_bits);
  mpfr_set_ui(raw(relative), 1, MPFR_RNDN);
  mpfr_mul_2si(raw(relative), raw(relative), rotary_frequency_error_offset - rule_bits, MPFR_RNDU);
  return to_steps(w, raw(relative));
}

std::optional<BinaryAngleSteps> binary_angle_steps(double angle) {
  if (angle == 0.0 || !std::isfinite(angle)) return std::nullopt;
  // angle = m 2^e with m odd, read from the bits (no library call: this runs
  // for every entry of a model's cache). A subnormal double (its exponent
  // field 0) is left to MPFR with the other angles past 2^-800.
  const auto bits = std::bit_cast<std::uint64_t>(angle);
  const int field = static_cast<int>((bits >> 52) & 0x7ff);
  if (field == 0) return std::nullopt;
  const std::uint64_t significand = (bits & ((std::uint64_t{1} << 52) - 1)) | (std::uint64_t{1} << 52);
  const int zeros = std::countr_zero(significand);
  const auto magnitude = static_cast<std::int64_t>(significand >> zeros);
  const std::int64_t m = angle < 0.0 ? -magnitude : magnitude;
  const int e = field - 1075 + zeros;
  if (m > (std::int64_t{1} << 31) || m < -(std::int64_t{1} << 31)) return std::nullopt;
  const StepsFrequency& unit = steps_per_radian();
  // Scaling by 2^e is exact while no word leaves the normal range; the first
  // step then rejects frequencies below 2^-50 steps anyway.
  // (The error word, about 2^-160 of f0, stays normal for e >= -800.) A
  // negative m is a negative position, which the first step reduces as any.
  if (e < -800 || e > 800) return std::nullopt;
  const double scale = std::bit_cast<double>(static_cast<std::uint64_t>(1023 + e) << 52);  // 2^e, exact
  const StepsFrequency f{unit.f0 * scale, unit.f1 * scale, unit.f2 * scale, unit.error * scale};
  return BinaryAngleSteps{m, f};
}

}  // namespace pecheck::reference
