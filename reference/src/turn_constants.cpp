#include "turn_constants.hpp"

#include <array>

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
  // sin and cos at the first eighth of the turn, j = 0 .. table_steps / 8,
  // with MPFR; every other point is one of these, up to sign, by the
  // symmetries of the turn (below). A nearest double-word is a function of
  // the real value alone, and of -c it is the negated words: the points so
  // placed are the words MPFR gives there, bit for bit (constants_test), at
  // an eighth of the calls (they were most of a small validation's time).
  constexpr std::int64_t quarter = table_steps / 4;
  constexpr std::int64_t eighth = table_steps / 8;
  std::array<DoubleWord, eighth + 1> sin_eighth{}, cos_eighth{};
  for (std::int64_t j = 0; j <= eighth; ++j) {
    mpfr_set_si(raw(step), static_cast<long>(j), MPFR_RNDN);
    mpfr_sinu(raw(x), raw(step), static_cast<unsigned long>(table_steps), MPFR_RNDN);
    sin_eighth[static_cast<std::size_t>(j)] = nearest_double_word(raw(x));
    mpfr_cosu(raw(x), raw(step), static_cast<unsigned long>(table_steps), MPFR_RNDN);
    cos_eighth[static_cast<std::size_t>(j)] = nearest_double_word(raw(x));
  }
  // Within the first quarter, sin at r is cos at quarter - r and the other way
  // round; a quarter turn on, (sin, cos) becomes (cos, -sin).
  const auto in_quarter = [&](std::int64_t r, bool want_sin) {
    const bool mirrored = r > eighth;
    const auto k = static_cast<std::size_t>(mirrored ? quarter - r : r);
    return want_sin != mirrored ? sin_eighth[k] : cos_eighth[k];
  };
  // A zero word stays +0, as MPFR gives its exact zeros (sin at the half
  // turn, the low word of an exact +-1).
  const auto negated = [](DoubleWord w) {
    const auto minus = [](double v) { return v == 0.0 ? 0.0 : -v; };
    return DoubleWord{minus(w.hi), minus(w.lo)};
  };
  for (std::int64_t j = 0; j < table_steps; ++j) {
    const std::int64_t q = j / quarter;
    const std::int64_t r = j % quarter;
    DoubleWord sin_word = in_quarter(r, q % 2 == 0);
    DoubleWord cos_word = in_quarter(r, q % 2 != 0);
    if (q == 1 || q == 2) cos_word = negated(cos_word);
    if (q == 2 || q == 3) sin_word = negated(sin_word);
    const auto slot = static_cast<std::size_t>(j);
    constants.sin_hi[slot] = sin_word.hi;
    constants.sin_lo[slot] = sin_word.lo;
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
