// The cheapest tier for a computation model whose angles are float32 values
// (hf-float32 and the models that round their angle to float32): the angle
// a = RN_float32(p_r inv_freq) is an exact double with a 24-bit significand,
// so its reduction by pi/2 needs no table of 2 pi / N steps and no
// double-word frequency. Cody-Waite with a three-part pi/2 (the first two
// products exact, derived in float_angle_tier.cpp), then Taylor polynomials
// with a proven remainder, each value with a rigorous bound on its distance
// from cos a or sin a (times the attention factor). An entry whose bound is
// not within the wanted relative tolerance is left to the other tiers
// (rotary_tiers.hpp); no rounding to the cache's format is decided here:
// the rows this tier serves (rotary_reference_rows) carry exact values only.
//
// Like the rest of the oracle it shares no code with lib's fast path, and its
// loops are functions of their own over plain arrays (per-variant dispatch
// can take them as they are). Their verdicts are 64-bit lanes, not bytes
// (flagged_loop.hpp says why).
#pragma once

#include <cstddef>
#include <cstdint>

namespace pecheck::reference {

// The largest |angle| the reduction is exact for: |k| < 2^24 keeps k C1 and
// k C2 exact (24 + 29 significant bits).
inline constexpr double float_angle_max = 0x1p24;

// pi/2 = C1 + C2 + C3 + delta, |delta| < 2^-114: C1 and C2 of 29 significant
// bits, C3 = RN(pi/2 - C1 - C2) (float_angle_tier.cpp derives the rest).
inline constexpr double float_angle_pi_half[3] = {0x1.921fb54p+0, 0x1.10b4612p-30, -0x1.676733ae8fe48p-60};

// angles[i] = RN_float32(p inv_freq[i]) as a double, fits[i] = 1 when the
// tier can take it: p inv_freq[i] exact in double (p and inv_freq of at most
// 26 significant bits each, as float32 and bfloat16 values are), the product
// zero or in float32's normal range (a subnormal angle is the other tiers'),
// and |angle| <= float_angle_max. Otherwise fits[i] = 0 and angles[i] = 0.
// Returns whether every fits[i] is 1.
bool float_angles(double p, const double* inv_freq, std::size_t n, double* angles, std::int64_t* fits);

// cos and sin of angles[i] (an exact double with at most 24 significant
// bits, |angle| <= float_angle_max, as float_angles gives) times `factor`
// (an exact double); ok[i] = 1 when both are within tolerance relative of
// the exact values (within_relative, enclosure_decision.hpp), else 0.
// Returns whether every ok[i] is 1.
bool float_angle_sin_cos(const double* angles, std::size_t n, double factor, double tolerance, double* cos_out,
                         double* sin_out, std::int64_t* ok);

}  // namespace pecheck::reference
