// What the first step's enclosure [v - e, v + e] of an exact value decides:
// its rounding to a format, and whether v may stand for the exact value.
#pragma once

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <optional>

#include "double_word.hpp"
#include "pecheck/format.hpp"

namespace pecheck::reference {

// Exponents and powers of two by their bits: no library call on the hot
// path. Both are for normal doubles (any other input gives a meaningless
// value that the callers mask).
inline int binade(double x) { return static_cast<int>((std::bit_cast<std::uint64_t>(x) >> 52) & 0x7ff) - 1023; }
inline double power_of_two(int e) { return std::bit_cast<double>(static_cast<std::uint64_t>(e + 1023) << 52); }

// The spacing of the format's values in the binade of |x| (x != 0): its unit
// in the last place, constant below the smallest normal (gradual underflow).
inline double quantum(double x, const Format& format) {
  return power_of_two(std::max(binade(x), format.min_exponent) - (format.precision - 1));
}

// RN(y (1 - 2^-50)) < y for y > 0, and below every real y' with RN(y') = y:
// a comparison a < shrunk(RN(y')) therefore implies a < y'.
inline double shrunk(double y) { return y * (1.0 - 0x1p-50); }

// Whether every x with |x - (c_hi + c_lo)| <= error satisfies x < half,
// i.e. error < room = half - c_hi - c_lo. half - c_hi = r.hi + r.lo exactly
// (TwoSum); t = RN(r.lo - c_lo) and s = RN(r.hi + t) are within u |t| + u |s|
// <= u (|r.lo| + |c_lo|) + u |s| of the room. So error plus 2^-52 (|r.lo| +
// |c_lo|), rounded up by 1 + 2^-50 (over the two roundings of that sum),
// below shrunk(s) (below s (1 - 2^-51)) implies error < room.
inline bool strictly_below(double c_hi, double c_lo, double error, double half) {
  const DoubleWord r = exact_sum(half, -c_hi);
  const double s = r.hi + (r.lo - c_lo);
  return (error + 0x1p-52 * (std::fabs(r.lo) + std::fabs(c_lo))) * (1.0 + 0x1p-50) < shrunk(s);
}
inline bool strictly_below(DoubleWord c, double error, double half) { return strictly_below(c.hi, c.lo, error, half); }

struct NonzeroRounding {
  double value = 0.0;
  bool decided = false;
};

// The rounding of [v - error, v + error] when it is a nonzero format value;
// without branches, so a loop over a row vectorises. Any input it cannot
// vouch for (zero candidate, non-finite, below 2^-960, overflow) comes out
// undecided.
//
// The candidate q is v rounded to the format's precision by v.hi (and v.lo's
// sign when v.hi is a midpoint): scaling by the quantum (a power of two) is
// exact both ways, and nearbyint is exact below 2^53. Any candidate would be
// safe: q is only accepted when the whole enclosure lies strictly inside its
// rounding interval (q - g_below/2, q + g_above/2), g the gaps to q's
// neighbours (halved below a power of two in a normal binade); a real on the
// boundary itself (a tie) is never decided here.
//
// v.hi - q is exact (both are multiples of v.hi's double ulp, since the
// format has at most 53 bits, and |v.hi - q| <= quantum / 2), so
// d = (v.hi - q) + v.lo is an exact double-word for v - q.
//
// Below 2^-960 a float64 quantum would leave power_of_two's range: MPFR's
// business (the first step gives up far above, at 2^-400).
//
// No floating-point operation sits under a condition, so that a loop over it
// vectorises for every target: on a midpoint (off = scaled - nearest = +-1/2,
// exact) the candidate is nearest + delta, delta = off +- 1/2 in {-1, 0, 1}
// (exact; floor(scaled) + 1 or + 0 as before, zeros' signs included), and
// elsewhere nearest + (-0), nearest itself, the choice made on the bits; the
// half gaps are powers of two made from their exponents. GCC 12 vectorised
// no loop calling it before: std::floor is not vectorised under the default
// -ftrapping-math, and a product or sum under a condition is masked only with
// AVX-512 (the double-word tier's rows took 21 to 24 ns an entry, 5 to 7 ns
// vectorised, the same bits). Where the candidate is unusable (|v.hi| below
// 2^-960, a non-finite value, q = 0) the half gaps may be meaningless, but the
// rounding is then undecided whatever they are.
[[gnu::always_inline]] inline NonzeroRounding nonzero_rounding(double hi, double lo, double error,
                                                               const Format& format) {
  const int shift = format.precision - 1;
  const int hi_binade = std::max(binade(hi), format.min_exponent) - shift;
  const double step = power_of_two(hi_binade);
  const double scaled = hi * power_of_two(-hi_binade);
  const double nearest = std::nearbyint(scaled);
  const double off = scaled - nearest;  // exact
  const bool on_midpoint = (std::fabs(off) == 0.5) & (lo != 0.0);
  const double delta = off + (lo > 0.0 ? 0.5 : -0.5);
  const std::uint64_t keep = -static_cast<std::uint64_t>(on_midpoint);
  const double chosen = nearest + std::bit_cast<double>((std::bit_cast<std::uint64_t>(delta) & keep) |
                                                        (std::bit_cast<std::uint64_t>(-0.0) & ~keep));
  const double q = chosen * step;

  const double magnitude = std::fabs(q);
  const int q_binade = binade(magnitude);
  const int away = std::max(q_binade, format.min_exponent) - shift;  // the gap away from zero is 2^away
  const bool is_power_of_two = (std::bit_cast<std::uint64_t>(magnitude) & ((std::uint64_t{1} << 52) - 1)) == 0;
  const int toward = away - static_cast<int>(is_power_of_two & (q_binade > format.min_exponent));
  const double half_away = power_of_two(away - 1);
  const double half_toward = power_of_two(toward - 1);
  const double half_up = q > 0 ? half_away : half_toward;
  const double half_down = q > 0 ? half_toward : half_away;
  const double largest = (2.0 - power_of_two(-shift)) * power_of_two(format.max_exponent);

  const DoubleWord d = exact_sum(hi - q, lo);
  // Bitwise & on the comparisons: no branch, so a loop over rows vectorises.
  const bool usable = (std::fabs(hi) >= 0x1p-960) & (std::fabs(hi) <= 0x1p1000) & (error <= 0x1p1000) & (q != 0.0) &
                      (magnitude <= largest);
  const bool inside = strictly_below(d.hi, d.lo, error, half_up) & strictly_below(-d.hi, -d.lo, error, half_down);
  const bool decided = usable & inside;
  return {q, decided};
}

// The format value every real in [v - error, v + error] rounds to (nearest,
// ties to even, gradual underflow), or nothing when the enclosure reaches a
// rounding boundary (a midpoint between two format values), contains zero or
// is not finite: then only a more precise evaluation can decide.
std::optional<double> decided_rounding(DoubleWord v, double error, const Format& format);

// Whether v (a double, or the leading word of a double-word value) is within
// tolerance |x| of every x with |x - v| <= error, for a relative tolerance
// such as exact_tolerance gives (at most 2^-20). Such an x has |x| >= |v|
// (1 - 2^-53) - error (a double-word tail is at most 2^-53 |v|). With
// a = |v| - error, RN(a) shrunk and multiplied by the tolerance (three
// roundings, one factor 1 - 2^-50) is at most tolerance a (1 - 2^-52), which
// is below tolerance (|v| (1 - 2^-53) - error) whenever error <= |v| / 2, as
// it is when the test passes. Measured against |v| alone, as before, the
// promise was off by a factor 1 + tolerance: negligible in any printed digit,
// but not what the bound says. A NaN or infinite error compares false.
inline bool within_relative(double v, double error, double tolerance) {
  return error <= tolerance * shrunk(std::fabs(v) - error);
}

// The relative accuracy the reference promises for its exact values.
inline constexpr double exact_relative_accuracy = 0x1p-100;

// Whether v is within exact_relative_accuracy |x| of every x in the enclosure.
// For x in it, |x| >= |v.hi| (1 - 2^-52) - error, so error <= 2^-100 |v.hi|
// (1 - 2^-50) gives |v - x| <= error <= 2^-100 |x|; the threshold is computed
// with one rounding (of the factor), hence 2^-50. A NaN error compares false.
inline bool good_as_exact(double hi, double error) {
  return error <= exact_relative_accuracy * shrunk(std::fabs(hi));
}
inline bool good_as_exact(DoubleWord v, double error) { return good_as_exact(v.hi, error); }

}  // namespace pecheck::reference
