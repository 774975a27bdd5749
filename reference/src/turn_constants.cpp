#include "turn_constants.hpp"

#include "real.hpp"

namespace pecheck::reference {

namespace {

constexpr mpfr_prec_t constant_bits = 192;

// The nearest double-word to x: hi = RN(x), lo = RN(x - hi); x - hi is exact
// at constant_bits (it keeps x's low bits).
DoubleWord nearest_double_word(mpfr_ptr x) {
  const double hi = mpfr_get_d(x, MPFR_RNDN);
  mpfr_sub_d(x, x, hi, MPFR_RNDN);
  return {hi, mpfr_get_d(x, MPFR_RNDN)};
}

TurnConstants build() {
  TurnConstants constants;
  Real x = make_real(constant_bits);
  Real step = make_real(constant_bits);
  for (std::int64_t j = 0; j < table_steps; ++j) {
    mpfr_set_si(raw(step), static_cast<long>(j), MPFR_RNDN);
    mpfr_sinu(raw(x), raw(step), static_cast<unsigned long>(table_steps), MPFR_RNDN);
    const auto slot = static_cast<std::size_t>(j);
    const DoubleWord sin_word = nearest_double_word(raw(x));
    constants.sin_hi[slot] = sin_word.hi;
    constants.sin_lo[slot] = sin_word.lo;
    mpfr_cosu(raw(x), raw(step), static_cast<unsigned long>(table_steps), MPFR_RNDN);
    const DoubleWord cos_word = nearest_double_word(raw(x));
    constants.cos_hi[slot] = cos_word.hi;
    constants.cos_lo[slot] = cos_word.lo;
  }
  mpfr_const_pi(raw(x), MPFR_RNDN);
  mpfr_mul_2si(raw(x), raw(x), 1 - static_cast<long>(table_steps_log2), MPFR_RNDN);
  constants.radians_per_step = nearest_double_word(raw(x));

  // 1/n! with alternating signs, starting at n = 2 (cos) and n = 3 (sin).
  mpfr_set_ui(raw(x), 1, MPFR_RNDN);
  for (unsigned long n = 2; n <= 10; ++n) {
    mpfr_div_ui(raw(x), raw(x), n, MPFR_RNDN);
    mpfr_set(raw(step), raw(x), MPFR_RNDN);
    if ((n / 2) % 2 == 1) mpfr_neg(raw(step), raw(step), MPFR_RNDN);
    const DoubleWord term = nearest_double_word(raw(step));
    if (n % 2 == 0) constants.cos_tail[n / 2 - 1] = term;
    if (n % 2 == 1 && n <= 9) constants.sin_tail[n / 2 - 1] = term;
  }
  mpfr_free_cache2(MPFR_FREE_LOCAL_CACHE);
  return constants;
}

}  // namespace

const TurnConstants& turn_constants() {
  static const TurnConstants constants = build();
  return constants;
}

}  // namespace pecheck::reference
