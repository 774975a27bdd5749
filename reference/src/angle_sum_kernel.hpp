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

void angle_sum_entries(std::size_t count, AngleEnclosures anchor, const double* anchor_magnitude,
                       AngleEnclosures offset, NarrowFormat format, double tolerance, AngleSumOutput out);

}  // namespace pecheck::reference
