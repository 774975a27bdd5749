// The angle-sum tier's vector loop: the exact encoding's cos and sin at
// position p0 + k from double-word enclosures at the anchor p0 and at the
// offset k (the angles are p F_i, so cos((p0 + k) w) = cos(p0 w) cos(k w) -
// sin(p0 w) sin(k w)), each with a rigorous bound, and the rounding to a
// narrow format decided by that bound (narrow_rounding). angle_sum_kernel.cpp
// derives the bound; angle_sum_tier.hpp prepares the enclosures.
//
// Its inputs are plain arrays and doubles, so that the loop can be compiled
// once per instruction-set variant and chosen at run time.
#pragma once

#include <cmath>
#include <cstddef>

#include "double_tier.hpp"

namespace pecheck::reference {

// Enclosures of cos and sin of one angle per frequency, as double-words:
// |cos - (cos_hi + cos_lo)| <= error and the same for sin. Every word is 0 or
// at least 2^-400 in magnitude, |lo| <= 2^-53 |hi| (as the double-word
// operations leave them), and an unusable entry has an infinite error.
struct AngleEnclosures {
  const double* cos_hi;
  const double* cos_lo;
  const double* sin_hi;
  const double* sin_lo;
  const double* error;
};

// The kernel's results, entry i per frequency: the value (a plain double
// within its bound of the exact one), its rounding to the format where the
// bound decides it, and done when both cos and sin are decided and within
// `tolerance` (relative) of the exact values.
struct AngleSumOutput {
  double* cos_value;
  double* sin_value;
  double* cos_rounded;
  double* sin_rounded;
  unsigned char* done;
};

// Offsets' words are at most offset_magnitude (1 + 2^-40) in magnitude, an
// anchor's at most anchor_magnitude[i] (the attention factor folded in).
inline constexpr double offset_magnitude = 1.0 + 0x1p-40;

// One entry: cos and sin at p0 + k and their bounds (angle_sum_kernel.cpp
// derives them), from the anchor's words (a = cos, b = sin, within ea, at most
// ma in magnitude) and the offset's (c = cos, s = sin, within eo).
struct AngleSum {
  double cos_value, cos_error, sin_value, sin_error;
};
inline AngleSum angle_sum_entry(double a1, double a2, double b1, double b2, double ea, double ma, double c1, double c2,
                                double s1, double s2, double eo) {
  constexpr double u = 0x1p-53;
  constexpr double low_words = 24.0 * 0x1p-106;  // 24 u^2
  constexpr double underflow = 0x1p-1000;
  constexpr double bound_margin = 1.0 + 0x1p-20;
  const double inputs = 2.0 * (ma * eo + ea) + low_words * ma + underflow;

  // cos: a c - b s.
  const double p1 = a1 * c1;
  const double p2 = std::fma(a1, c1, -p1);
  const double q1 = b1 * s1;
  const double q2 = std::fma(b1, s1, -q1);
  const double d_c = p1 - q1;
  double t_c = p2 - q2;
  t_c = std::fma(a1, c2, t_c);
  t_c = std::fma(a2, c1, t_c);
  t_c = std::fma(-b1, s2, t_c);
  t_c = std::fma(-b2, s1, t_c);
  const double v_c = d_c + t_c;

  // sin: b c + a s.
  const double r1 = b1 * c1;
  const double r2 = std::fma(b1, c1, -r1);
  const double w1 = a1 * s1;
  const double w2 = std::fma(a1, s1, -w1);
  const double d_s = r1 + w1;
  double t_s = r2 + w2;
  t_s = std::fma(b1, c2, t_s);
  t_s = std::fma(b2, c1, t_s);
  t_s = std::fma(a1, s2, t_s);
  t_s = std::fma(a2, s1, t_s);
  const double v_s = d_s + t_s;

  return {v_c, (u * (std::fabs(v_c) + std::fabs(d_c)) + inputs) * bound_margin, v_s,
          (u * (std::fabs(v_s) + std::fabs(d_s)) + inputs) * bound_margin};
}

// Both return how many entries they settled (out.done set).
std::size_t angle_sum_entries(std::size_t count, AngleEnclosures anchor, const double* anchor_magnitude,
                              AngleEnclosures offset, NarrowFormat format, double tolerance, AngleSumOutput out);

// The same without the rounding, for a caller that wants the exact values
// alone (a comparison): done when both are within `tolerance` (relative),
// out.cos_rounded and out.sin_rounded not written. Half the operations.
std::size_t angle_sum_exact_entries(std::size_t count, AngleEnclosures anchor, const double* anchor_magnitude,
                                    AngleEnclosures offset, double tolerance, AngleSumOutput out);

}  // namespace pecheck::reference
