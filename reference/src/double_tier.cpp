#include "double_tier.hpp"

#include <limits>

#include "enclosure_decision.hpp"
#include "flagged_loop.hpp"
#include "turn_constants.hpp"

namespace pecheck::reference {

// The bound. u = 2^-53; RN is round to nearest; every quantity below is a
// double unless it is called exact. The argument is the double-word tier's
// (argument_reduction.hpp, first_step.cpp): p F - n = Y exactly in steps, with
// y = y.hi + y.lo within y_error of Y and |Y| <= 1/2 + 2^-12.
//
//   yd = y.hi = RN(y.hi + y.lo):  |yd - Y| <= y_error + |y.lo|           (ey)
//   x  = RN(yd K~), K~ = RN(K), K = 2 pi / N: against the exact remainder
//        X = Y K,  |x - X| <= u |x| + u K |yd| + K ey
//                         <= eta = 2^-51.9 |x| + 1.0001 K~ ey
//        (K |yd| <= |x| (1 + u) / (1 - u), K <= K~ (1 + u)), and
//        |x| <= (1/2 + 2^-12) 2 pi / 1024 < 0.003075.
//
// The polynomials, z = RN(x^2) (|z| < 9.46e-6):
//   sin x = x - x^3/3! + x^5/5! - T_s,  |T_s| <= |x|^7 / 7! < 2^-62.3 |x|;
//   s = RN(x + x w), w = RN(z RN(s3 + z s5)) ~ -z/6 within 5u relative (the
//   roundings of z, the coefficients, the FMA and the product), so
//   |s - sin x| <= alpha_s = u |s| + 5u (z/6) |x| + 2^-62.3 |x|
//                         <= u |s| + 2^-62 |x|.
//   cos x - 1 = -x^2/2! + x^4/4! - x^6/6! + T_c, |T_c| <= x^8 / 8! < 2^-82;
//   h = RN(z RN(c2 + z RN(c4 + z c6))) ~ -z/2 within 5u relative, so
//   |h - (cos x - 1)| <= beta_c = 5u (z/2) + 2^-82 < 2^-67.
//   The argument's error moves them: |sin x - sin X| <= |x - X| <= eta and
//   |cos x - cos X| <= eta (|x| + eta).
//
// The angle sum with the table point j = n mod N, S~ = RN(sin 2 pi j / N) and
// C~ = RN(cos 2 pi j / N) (each within u of itself; exactly 0 or +-1 at the
// quarter turns, where sin or cos of p w has its zeros):
//   sin(p w) = S cos X + C sin X = S + (S (cos X - 1) + C sin X),
//   t_s = RN(S~ h + RN(C~ s)) (one FMA), v_s = RN(S~ + t_s);
//   |v_s - sin(p w)| <= u |v_s| + u |t_s| + u |C~ s|        (three roundings)
//                     + u |S~| (1 + |h|) + u |C~| |s|       (S~, C~ off by u)
//                     + |S| (beta_c + eta (|x| + eta))      (h against cos X - 1)
//                     + |C| (alpha_s + eta)                 (s against sin X),
// and symmetrically cos(p w) = C + (C (cos X - 1) - S sin X). The bound below
// takes 2u for u in the first two lines, which covers the factors (1 + u) of
// |S| <= |S~| (1 + u) and the like with room to spare; it is computed in
// double from non-negative terms (about 20 operations, each within u), and
// the final factor 1 + 2^-20 covers that rounding.
//
// Near a zero of sin(p w) the table point is a half turn (S~ = 0, C~ = +-1),
// so v_s = +-s and the bound is about 10u |v_s|: relative, however small the
// value, because the remainder y is reduced exactly to within y_error.
//
// Underflow: as in the double-word tier, below |x| = 2^-400 the enclosure is
// given up, so every intermediate stays far above the underflow threshold.

namespace {

constexpr double bound_margin = 1.0 + 0x1p-20;
constexpr double min_remainder = 0x1p-400;
constexpr double alpha_x = 0x1p-62;  // |s - sin x| <= u |s| + alpha_x |x|
constexpr double beta_c = 0x1p-67;   // |h - (cos x - 1)|
constexpr double twice_u = 0x1p-52;

}  // namespace

NarrowFormat narrow_format(const Format& format) {
  const double min_normal = std::ldexp(1.0, format.min_exponent);
  const double ulp_scale = std::ldexp(1.0, 1 - format.precision);
  return {min_normal, ulp_scale, (2.0 - 2.0 * ulp_scale) * std::ldexp(1.0, format.max_exponent)};
}

DoubleTierConstants double_tier_constants() {
  const TurnConstants& t = turn_constants();
  return {t.radians_per_step.hi, t.sin_tail[0].hi, t.sin_tail[1].hi, t.cos_tail[0].hi,
          t.cos_tail[1].hi,      t.cos_tail[2].hi, t.sin_hi.data(),  t.cos_hi.data()};
}

namespace {

[[gnu::always_inline]] inline DoubleEnclosure enclose(double p, double f0, double f1, double f2, double f_error,
                                                      const DoubleTierConstants& k) {
  const ReducedArgument reduced = reduce_argument(p, f0, f1, f2, f_error);
  const double yd = reduced.y.hi;
  const double ey = reduced.y_error + std::fabs(reduced.y.lo);
  const double x = yd * k.radians_per_step;
  const double x_abs = std::fabs(x);
  const double eta = 0x1.08p-52 * x_abs + 1.0001 * k.radians_per_step * ey;

  const double z = x * x;
  const double w = z * std::fma(z, k.s5, k.s3);
  const double s = std::fma(x, w, x);
  const double h = z * std::fma(z, std::fma(z, k.c6, k.c4), k.c2);
  const double alpha_s = 0x1p-53 * std::fabs(s) + alpha_x * x_abs;

  // n's low bits, read from n + 1.5 * 2^52 (exact for |n| < 2^51), are n mod N
  // in two's complement: the table point, without a conversion to integer.
  const auto j = static_cast<std::size_t>(std::bit_cast<std::uint64_t>(reduced.n + 0x1.8p52) &
                                          static_cast<std::uint64_t>(table_steps - 1));
  const double big_s = k.sin_table[j];
  const double big_c = k.cos_table[j];
  const double cs = big_c * s;
  const double ss = big_s * s;
  const double t_s = std::fma(big_s, h, cs);
  const double t_c = std::fma(big_c, h, -ss);
  const double v_s = big_s + t_s;
  const double v_c = big_c + t_c;

  const double abs_s = std::fabs(big_s);
  const double abs_c = std::fabs(big_c);
  const double cos_part = beta_c + eta * (x_abs + eta);
  const double sin_part = alpha_s + eta;
  // Below min_remainder the bound is given up (see "Underflow" above).
  const double give_up = x_abs >= min_remainder ? 1.0 : std::numeric_limits<double>::infinity();
  DoubleEnclosure out;
  out.sin_value = v_s;
  out.cos_value = v_c;
  out.sin_error = (twice_u * (std::fabs(v_s) + std::fabs(t_s) + abs_s + 2.0 * std::fabs(cs)) + abs_s * cos_part +
                   abs_c * sin_part) *
                  bound_margin * give_up;
  out.cos_error = (twice_u * (std::fabs(v_c) + std::fabs(t_c) + abs_c + 2.0 * std::fabs(ss)) + abs_c * cos_part +
                   abs_s * sin_part) *
                  bound_margin * give_up;
  return out;
}

}  // namespace

DoubleEnclosure double_tier_sin_cos(double p, double f0, double f1, double f2, double f_error,
                                    const DoubleTierConstants& k) {
  return enclose(p, f0, f1, f2, f_error, k);
}

namespace {

template <bool DecideRounding>
void settle_row(std::int64_t position, const StepsFrequencies& frequencies, const NarrowFormat& format_in,
                double exact_tolerance, RowDecisions& out) {
  const DoubleTierConstants k = double_tier_constants();
  const NarrowFormat format = format_in;  // a local copy: loop invariants
  const double p = static_cast<double>(position);
  const std::size_t count = frequencies.f0.size();
  out.resize(count);
  out.plain = true;
  const double* __restrict f0 = frequencies.f0.data();
  const double* __restrict f1 = frequencies.f1.data();
  const double* __restrict f2 = frequencies.f2.data();
  const double* __restrict f_error = frequencies.error.data();
  double* __restrict sin_rounded = out.sin_rounded.data();
  double* __restrict cos_rounded = out.cos_rounded.data();
  double* __restrict sin_hi = out.sin_hi.data();
  double* __restrict cos_hi = out.cos_hi.data();
  if constexpr (DecideRounding) {
    flagged_pair_loop(
        count, out.sin_done.data(), out.cos_done.data(), [&](std::size_t i) __attribute__((always_inline)) {
          const DoubleEnclosure e = enclose(p, f0[i], f1[i], f2[i], f_error[i], k);
          const NarrowRounding s = narrow_rounding(e.sin_value, e.sin_error, format);
          const NarrowRounding c = narrow_rounding(e.cos_value, e.cos_error, format);
          sin_rounded[i] = s.value;
          cos_rounded[i] = c.value;
          sin_hi[i] = e.sin_value;  // plain doubles: no lo stored
          cos_hi[i] = e.cos_value;
          return pair_code(s.decided & within_relative(e.sin_value, e.sin_error, exact_tolerance),
                           c.decided & within_relative(e.cos_value, e.cos_error, exact_tolerance));
        });
  } else {
    // No rounded values to keep: a lighter body, where one loop storing the
    // bytes (vectorised sixty-four entries at a time) measured as fast as
    // blocks of eight natively and 4 to 15% faster for x86-64-v3.
    unsigned char* __restrict sin_done = out.sin_done.data();
    unsigned char* __restrict cos_done = out.cos_done.data();
#pragma GCC ivdep
    for (std::size_t i = 0; i < count; ++i) {
      const DoubleEnclosure e = enclose(p, f0[i], f1[i], f2[i], f_error[i], k);
      sin_hi[i] = e.sin_value;
      cos_hi[i] = e.cos_value;
      sin_done[i] = within_relative(e.sin_value, e.sin_error, exact_tolerance);
      cos_done[i] = within_relative(e.cos_value, e.cos_error, exact_tolerance);
    }
  }
}

// Scaled or not as two loops: the scaling's products, were they under a
// branch in the loop, could only be made unconditional with AVX-512's masks
// (they may raise a floating-point exception), so a loop for x86-64-v3 with
// the branch in it stayed scalar.
template <bool Scaled>
void settle_entries(const double* positions, const StepsFrequencies& frequencies, double factor,
                    const NarrowFormat& format_in, double exact_tolerance, RowDecisions& out) {
  const DoubleTierConstants k = double_tier_constants();
  const NarrowFormat format = format_in;  // a local copy: loop invariants
  const std::size_t count = frequencies.f0.size();
  out.resize(count);
  out.plain = true;
  const double* __restrict p = positions;
  const double* __restrict f0 = frequencies.f0.data();
  const double* __restrict f1 = frequencies.f1.data();
  const double* __restrict f2 = frequencies.f2.data();
  const double* __restrict f_error = frequencies.error.data();
  double* __restrict sin_rounded = out.sin_rounded.data();
  double* __restrict cos_rounded = out.cos_rounded.data();
  double* __restrict sin_hi = out.sin_hi.data();
  double* __restrict cos_hi = out.cos_hi.data();
  const double factor_magnitude = std::fabs(factor);
  flagged_pair_loop(
      count, out.sin_done.data(), out.cos_done.data(), [&](std::size_t i) __attribute__((always_inline)) {
        const DoubleEnclosure e = enclose(p[i], f0[i], f1[i], f2[i], f_error[i], k);
        double sin_value = e.sin_value, sin_error = e.sin_error, cos_value = e.cos_value, cos_error = e.cos_error;
        if constexpr (Scaled) {
          sin_value *= factor;
          cos_value *= factor;
          sin_error = (factor_magnitude * sin_error + 0x1p-53 * std::fabs(sin_value)) * (1.0 + 0x1p-50);
          cos_error = (factor_magnitude * cos_error + 0x1p-53 * std::fabs(cos_value)) * (1.0 + 0x1p-50);
        }
        const NarrowRounding s = narrow_rounding(sin_value, sin_error, format);
        const NarrowRounding c = narrow_rounding(cos_value, cos_error, format);
        sin_rounded[i] = s.value;
        cos_rounded[i] = c.value;
        sin_hi[i] = sin_value;
        cos_hi[i] = cos_value;
        return pair_code(s.decided & within_relative(sin_value, sin_error, exact_tolerance),
                         c.decided & within_relative(cos_value, cos_error, exact_tolerance));
      });
}

}  // namespace

void double_tier_entries(const double* positions, const StepsFrequencies& frequencies, double factor,
                         const NarrowFormat& format, double exact_tolerance, RowDecisions& out) {
  if (factor != 1.0) {
    settle_entries<true>(positions, frequencies, factor, format, exact_tolerance, out);
  } else {
    settle_entries<false>(positions, frequencies, factor, format, exact_tolerance, out);
  }
}

void double_tier_row(std::int64_t position, const StepsFrequencies& frequencies, const NarrowFormat& format,
                     double exact_tolerance, bool decide_rounding, RowDecisions& out) {
  if (decide_rounding) {
    settle_row<true>(position, frequencies, format, exact_tolerance, out);
  } else {
    settle_row<false>(position, frequencies, format, exact_tolerance, out);
  }
}

}  // namespace pecheck::reference
