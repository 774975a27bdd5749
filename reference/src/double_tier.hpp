// The oracle's cheapest tier, for formats narrower than float64 (float32,
// float16, bfloat16): sin and cos of p w in plain double arithmetic, each
// with a rigorous bound on its distance from the exact value, deciding the
// rounding when that enclosure lies inside one rounding interval of the
// format. What it leaves undecided goes to the double-word tier
// (first_step.cpp) and then MPFR. double_tier.cpp has the reasoning.
//
// Like the rest of the oracle it shares no code with lib's fast path: a bug
// shared by the oracle and the subject it checks would hide itself.
#pragma once

#include <bit>
#include <cmath>
#include <cstdint>

#include "argument_reduction.hpp"
#include "first_step.hpp"
#include "pecheck/format.hpp"
#include "row_decisions.hpp"

namespace pecheck::reference {

// A format narrower than float64, as the doubles the decision needs.
struct NarrowFormat {
  double min_normal;  // 2^min_exponent: below it the spacing stays that of this binade
  double ulp_scale;   // 2^(1 - precision): the spacing in the binade of 2^e is 2^e ulp_scale
  double largest;     // the largest finite value
};

// Requires format.precision <= 26 (so that half a spacing holds the double
// spacing of every value in it, which makes the differences below exact).
NarrowFormat narrow_format(const Format& format);

// The larger of two non-negative non-NaN doubles (a select, which vectorises
// where std::fmax's NaN rules may not).
inline double larger(double a, double b) { return a > b ? a : b; }

inline double binade_floor(double magnitude) {
  // |x| with its significand bits cleared: 2^floor(log2 |x|) for a normal x.
  return std::bit_cast<double>(std::bit_cast<std::uint64_t>(magnitude) & 0x7ff0000000000000ULL);
}

struct NarrowRounding {
  double value = 0.0;
  bool decided = false;
};

// The format value every real within `error` of v rounds to (nearest, ties to
// even, gradual underflow), decided when [v - error, v + error] lies strictly
// inside the rounding interval of q, the format value nearest v: the open
// interval between the midpoints to q's neighbours, whose gap below is half
// the gap above when |q| is a power of two in a normal binade (a binade
// edge). A candidate zero, an overflow, a non-finite input or |v| below
// 2^-900 is left undecided (the next tier decides zeros and signs).
//
// Exactness, for a format of precision P <= 26 and a normal double v with
// 2^e <= |v| < 2^(e+1): the spacing g of the format at v is a power of two of
// at least 2^(e+1-P), so v / g (a multiplication by 2^-log2 g) is exact and
// below 2^P in magnitude, and q = nearbyint(v / g) g is exact; q, g / 2,
// g / 4 and v are all multiples of ulp(v) = 2^(e-52), and so are
// d = v - q (|d| <= g / 2 < 2^(e+1): exact) and the rooms half_up - d and
// half_down + d. In a normal binade of the format g = 2^(e+1-P) and the rooms
// are below 2 g <= 2^e: exact. Below it (gradual underflow) q != 0 means
// |v| >= g / 2, so the rooms are below g < 2^(e+2) and may round, but only
// when they exceed 2^(e+1) > |v| > error, where the rounded room (never below
// the power of two 2^(e+1)) gives the same answer. So error < room is the exact
// test of v + error < the upper midpoint (and of v - error > the lower one).
// Every operation is a plain double operation or a bit mask, so a loop over
// it vectorises (GCC 12 vectorises it as a plain inline function, not as
// always_inline: inlined that early, its returned struct stays in memory).
// The half gap toward zero at a binade edge (a quarter of gap_away, a power
// of two of at least 2^-151 here, so a normal double) is taken by lowering the
// exponent's bits: written as a product under the condition, GCC sank the
// product into a branch, which a loop only makes unconditional with AVX-512's
// masks (a product may raise a floating-point exception), so compiled for
// x86-64-v3 every loop deciding roundings stayed scalar (the double tier's
// rows took 31 ns an entry that way and 8 ns vectorised, the same bits).
inline NarrowRounding narrow_rounding(double v, double error, NarrowFormat f) {
  const double magnitude = std::fabs(v);
  const double spacing = larger(binade_floor(magnitude), f.min_normal) * f.ulp_scale;
  const double inverse = std::bit_cast<double>(0x7fe0000000000000ULL - std::bit_cast<std::uint64_t>(spacing));
  const double q = nearest_integer(v * inverse) * spacing;

  const double q_magnitude = std::fabs(q);
  const double q_binade = binade_floor(q_magnitude);
  const double gap_away = larger(q_binade, f.min_normal) * f.ulp_scale;
  const bool at_binade_edge = (q_magnitude == q_binade) & (q_binade > f.min_normal);
  const double half_away = gap_away * 0.5;
  const double half_toward = std::bit_cast<double>(std::bit_cast<std::uint64_t>(half_away) -
                                                   (static_cast<std::uint64_t>(at_binade_edge) << 52));
  const double half_up = q > 0.0 ? half_away : half_toward;
  const double half_down = q > 0.0 ? half_toward : half_away;
  const double d = v - q;

  // Bitwise & on the comparisons: no branch, so the loop stays vectorisable.
  const bool usable =
      (magnitude >= 0x1p-900) & (magnitude <= 0x1p900) & (q != 0.0) & (q_magnitude <= f.largest) & (error < magnitude);
  const bool decided = usable & (error < half_up - d) & (error < half_down + d);
  return {q, decided};
}

// The constants of the tier (turn_constants.hpp, the leading words only),
// copied before a loop so the vectoriser sees plain values.
struct DoubleTierConstants {
  double radians_per_step;
  double s3, s5;      // -1/3!, 1/5!
  double c2, c4, c6;  // -1/2!, 1/4!, -1/6!
  const double* sin_table;
  const double* cos_table;
};
DoubleTierConstants double_tier_constants();

// sin and cos of p w with their bounds: |sin(p w) - sin_value| <= sin_error.
struct DoubleEnclosure {
  double sin_value, sin_error, cos_value, cos_error;
};

// Requires first_step_applies(position, frequency); double_tier.cpp derives the bound.
DoubleEnclosure double_tier_sin_cos(double p, double f0, double f1, double f2, double f_error,
                                    const DoubleTierConstants& k);

// Every frequency of a row: the rounding to `format` where the enclosure
// decides it (when decide_rounding; otherwise an entry is settled by its
// exact value alone) and, as the exact value, the tier's own value where its
// bound is within exact_tolerance of it (relative). Requires
// first_step_applies_to_row and a format of precision <= 26.
void double_tier_row(std::int64_t position, const StepsFrequencies& frequencies, const NarrowFormat& format,
                     double exact_tolerance, bool decide_rounding, RowDecisions& out);

// The same for entries at positions of their own (positions[i], frequency
// i of `frequencies`; first_step_applies to each), every value scaled by
// `factor` (an exact double; 1: none) before it is decided: v = RN(factor s)
// is within |factor| e + 2^-53 |v| of factor times the exact value (round to
// nearest is within u of its result), that bound computed within 1 + 2^-50.
// A rotary cache's row: the exact encoding's frequencies at one position, or
// a computation model's binary angles m 2^e as (m, 2^e N / (2 pi)).
void double_tier_entries(const double* positions, const StepsFrequencies& frequencies, double factor,
                         const NarrowFormat& format, double exact_tolerance, RowDecisions& out);

}  // namespace pecheck::reference
