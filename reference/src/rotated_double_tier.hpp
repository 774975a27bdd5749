// The rotated-output oracle's cheapest tier, for output formats narrower than
// float64: a whole row's pairs rotated in plain double arithmetic by the
// double tier's sin and cos (double_tier.hpp) of each frequency, each output
// with a rigorous bound, and its rounding decided where the bound lies inside
// one rounding interval of the format (narrow_rounding). What it leaves
// undecided goes to the double-word tier (rotated_word_bound.hpp) and then
// MPFR, entry by entry (rotated_reference.cpp).
//
// The bound, u = 2^-53, c and s the tier's cos and sin within ec and es of
// cos t and sin t, x_a and x_b exact doubles, A the attention factor (exact):
//   m  = RN(x_a c):            |m - x_a c| <= u |x_a c| <= 2u |m|;
//   v  = RN(m - x_b s) (FMA):  |v - (m - x_b s)| <= 2u |v|;
//   so |v - (x_a cos t - x_b sin t)| <= |x_a| ec + |x_b| es + 2u (|m| + |v|);
//   and for A != 1, w = RN(A v) is within |A| e + 2u |w| of A times the exact
//   value (e the bound on v). out_b = x_a sin t + x_b cos t the same way.
// (2u covers u |y| <= u |RN(y)| / (1 - u).) The bound is computed in double
// from non-negative terms, about eight operations each within a factor
// 1 + u, so the final factor 1 + 2^-40 covers its own rounding. A NaN or
// infinite bound (non-finite inputs, the double tier giving up) and zero or
// tiny outputs are left undecided by narrow_rounding.
//
// The exact value given for a decided output is v alone, within the bound,
// which is kept only when it is within `exact_tolerance` of |v| relatively
// (ExactValues::for_format's 2^-(precision + 20): each ULP error then right
// to 2^-20 ULP); a cancelling pair that misses it goes down a tier.
#pragma once

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "double_tier.hpp"

namespace pecheck::reference {

// The double tier's sin and cos of every frequency at one position, by column.
struct RotatedRowTrig {
  std::vector<double> sin_value, sin_error, cos_value, cos_error;
};

// Fills `trig` for `position`; requires first_step_applies_to_row(position, frequencies).
void rotated_row_trig(std::int64_t position, const StepsFrequencies& frequencies, RotatedRowTrig& trig);

// One output with its bound: v = A (x u + y w), u and w within eu and ew of
// their exact values (the bound above, for x u - y w with y = -x_b and for
// x_a s + x_b c). The row's loop is made of it.
struct RotatedOutput {
  double value;
  double error;
};
inline RotatedOutput rotated_output(double x, double u, double eu, double y, double w, double ew, double factor,
                                    double abs_factor) {
  constexpr double twice_u = 0x1p-52;
  constexpr double bound_margin = 1.0 + 0x1p-40;
  const double m = x * u;
  const double v = std::fma(y, w, m);
  const double e = std::fabs(x) * eu + std::fabs(y) * ew + twice_u * (std::fabs(m) + std::fabs(v));
  const double scaled = v * factor;
  const double scaled_error = e * abs_factor + twice_u * std::fabs(scaled);
  return {scaled, scaled_error * bound_margin};
}

// Pairs i < count: first[i] = A (x_a c - x_b s), second[i] = A (x_a s + x_b c)
// with c, s frequency i's, rounded to `format` in *_rounded and given as
// doubles in *_exact; done[i] = 1 when both outputs are decided and their
// exact values within the tolerance. Nothing else is written where done[i] = 0.
// A loop over plain arrays: it vectorises.
struct RotatedRowOutputs {
  double* first_rounded;
  double* second_rounded;
  double* first_exact;
  double* second_exact;
  unsigned char* done;
};
void rotated_double_tier(const RotatedRowTrig& trig, const double* x_first, const double* x_second, std::size_t count,
                         double factor, const NarrowFormat& format, double exact_tolerance,
                         const RotatedRowOutputs& out);

}  // namespace pecheck::reference
