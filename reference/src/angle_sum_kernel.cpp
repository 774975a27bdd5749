#include "angle_sum_kernel.hpp"

#include "enclosure_decision.hpp"
#include "flagged_loop.hpp"

namespace pecheck::reference {

// The bound. u = 2^-53, RN is round to nearest. For one frequency, A and B
// are the exact cos and sin at the anchor times the attention factor, Cc and
// S the exact cos and sin at the offset (|Cc|, |S| <= 1); the inputs are
// double-words a = a1 + a2 within ea of A, b = b1 + b2 within ea of B,
// c = c1 + c2 within eo of Cc and s = s1 + s2 within eo of S, with
// |a1|, |b1| <= Ma (the caller's anchor_magnitude, which also bounds
// |a1| + |a2| as |a2| <= u |a1|), |c1|, |s1| <= Mo = offset_magnitude,
// |x2| <= u |x1| for every pair, and every word 0 or at least 2^-400.
//
// cos at p0 + k is X = A Cc - B S. angle_sum_entry (angle_sum_kernel.hpp) computes
//   a1 c1 = P1 + P2 and b1 s1 = Q1 + Q2 exactly (FMA; the words' size keeps
//       every product and its residual far above the underflow threshold),
//   d  = RN(P1 - Q1),                          |d - (P1 - Q1)| <= u |d|,
//   t1 = RN(P2 - Q2), t2 = RN(a1 c2 + t1), t3 = RN(a2 c1 + t2),
//   t4 = RN(-b1 s2 + t3), t5 = RN(-b2 s1 + t4)  (one FMA each),
//   v  = RN(d + t5),                           |v - (d + t5)| <= u |v|,
// so v differs from a c - b s = (P1 - Q1) + (P2 - Q2) + (a1 c2 + a2 c1 -
// b1 s2 - b2 s1) + (a2 c2 - b2 s2) by at most
//   u |v| + u |d|                               (the two roundings of the sum)
//   + u (|t1| + ... + |t5|)                     (the low words' roundings)
//   + |a2 c2| + |b2 s2|                         (dropped: <= 2 u^2 Ma Mo).
// With m = Ma Mo: |P2|, |Q2| <= u |P1|, u |Q1| <= u (1 + u) m, and each later
// step adds a term of at most u m (|a1 c2| <= u |a1| |c1|, and so on), so
// |t_i| <= (i + 1) u m (1 + u)^6 and the low words' roundings are at most
// 20 u^2 m (1 + u)^6. Against the exact factors,
//   |a c - A Cc| <= |a| |c - Cc| + |Cc| |a - A| <= Ma eo + ea, the same for
//   |b s - B S|, so the inputs add 2 (Ma eo + ea).
// Every rounding above may instead underflow, by at most 2^-1075 each (seven
// of them): 2^-1000 covers them. Altogether, with Mo <= 1 + 2^-40,
//   |v - X| <= u (|v| + |d|) + 2 (Ma eo + ea) + 24 u^2 Ma + 2^-1000,
// and the same for sin, Y = B Cc + A S, with the roles of a and b exchanged
// (P = b1 c1, Q = -a1 s1). The bound is computed in double from non-negative
// terms, eight operations each within (1 + u): the factor 1 + 2^-20 covers
// them with room to spare.
//
// Near a zero of cos or sin the anchor's and the offset's products cancel:
// d is then exact or small, and the bound stays about 2u |v| plus the inputs'
// 2^-100 or so, relative down to |v| near 2^-56; only there, or where the
// rounding is within the bound of a midpoint, is an entry left to the other
// tiers. With plain-double inputs (2^-52 each) the bound would be absolute
// at 2^-51 and leave every value below about 2^-7 to them (for float32).

std::size_t angle_sum_entries(std::size_t count, AngleEnclosures anchor, const double* anchor_magnitude,
                              AngleEnclosures offset, NarrowFormat format_in, double tolerance, AngleSumOutput out) {
  const NarrowFormat format = format_in;  // a local copy: loop invariants
  const double* __restrict a1s = anchor.cos_hi;
  const double* __restrict a2s = anchor.cos_lo;
  const double* __restrict b1s = anchor.sin_hi;
  const double* __restrict b2s = anchor.sin_lo;
  const double* __restrict eas = anchor.error;
  const double* __restrict mas = anchor_magnitude;
  const double* __restrict c1s = offset.cos_hi;
  const double* __restrict c2s = offset.cos_lo;
  const double* __restrict s1s = offset.sin_hi;
  const double* __restrict s2s = offset.sin_lo;
  const double* __restrict eos = offset.error;
  double* __restrict cos_value = out.cos_value;
  double* __restrict sin_value = out.sin_value;
  double* __restrict cos_rounded = out.cos_rounded;
  double* __restrict sin_rounded = out.sin_rounded;
  return flagged_loop(count, out.done, [&](std::size_t i) {
    const AngleSum e =
        angle_sum_entry(a1s[i], a2s[i], b1s[i], b2s[i], eas[i], mas[i], c1s[i], c2s[i], s1s[i], s2s[i], eos[i]);
    const double v_c = e.cos_value, v_s = e.sin_value, cos_error = e.cos_error, sin_error = e.sin_error;
    const NarrowRounding c = narrow_rounding(v_c, cos_error, format);
    const NarrowRounding s = narrow_rounding(v_s, sin_error, format);
    cos_value[i] = v_c;
    sin_value[i] = v_s;
    cos_rounded[i] = c.value;
    sin_rounded[i] = s.value;
    return c.decided & s.decided & within_relative(v_c, cos_error, tolerance) &
           within_relative(v_s, sin_error, tolerance);
  });
}

std::size_t angle_sum_exact_entries(std::size_t count, AngleEnclosures anchor, const double* anchor_magnitude,
                                    AngleEnclosures offset, double tolerance, AngleSumOutput out) {
  const double* __restrict a1s = anchor.cos_hi;
  const double* __restrict a2s = anchor.cos_lo;
  const double* __restrict b1s = anchor.sin_hi;
  const double* __restrict b2s = anchor.sin_lo;
  const double* __restrict eas = anchor.error;
  const double* __restrict mas = anchor_magnitude;
  const double* __restrict c1s = offset.cos_hi;
  const double* __restrict c2s = offset.cos_lo;
  const double* __restrict s1s = offset.sin_hi;
  const double* __restrict s2s = offset.sin_lo;
  const double* __restrict eos = offset.error;
  double* __restrict cos_value = out.cos_value;
  double* __restrict sin_value = out.sin_value;
  return flagged_loop(count, out.done, [&](std::size_t i) {
    const AngleSum e =
        angle_sum_entry(a1s[i], a2s[i], b1s[i], b2s[i], eas[i], mas[i], c1s[i], c2s[i], s1s[i], s2s[i], eos[i]);
    cos_value[i] = e.cos_value;
    sin_value[i] = e.sin_value;
    return within_relative(e.cos_value, e.cos_error, tolerance) & within_relative(e.sin_value, e.sin_error, tolerance);
  });
}

}  // namespace pecheck::reference
