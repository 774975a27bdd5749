#include "enclosure_decision.hpp"

#include <algorithm>
#include <cmath>

namespace pecheck::reference {

namespace {

// The spacing of the format's values in the binade of |x| (x != 0): its unit
// in the last place, constant below the smallest normal (gradual underflow).
double quantum(double x, const Format& format) {
  const int binade = std::max(std::ilogb(x), format.min_exponent);
  return std::ldexp(1.0, binade - (format.precision - 1));
}

// RN(y (1 - 2^-50)) < y for y > 0, and below every real y' with RN(y') = y:
// a comparison a < shrunk(RN(y')) therefore implies a < y'.
double shrunk(double y) { return y * (1.0 - 0x1p-50); }

// Whether every x with |x - (c.hi + c.lo)| <= error satisfies x < half,
// i.e. error < room = half - c.hi - c.lo. half - c.hi = r.hi + r.lo exactly
// (TwoSum); t = RN(r.lo - c.lo) and s = RN(r.hi + t) are within u |t| + u |s|
// <= u (|r.lo| + |c.lo|) + u |s| of the room. So error plus 2^-52 (|r.lo| +
// |c.lo|), rounded up by 1 + 2^-50 (over the two roundings of that sum),
// below shrunk(s) (below s (1 - 2^-51)) implies error < room.
bool strictly_below(DoubleWord c, double error, double half) {
  const DoubleWord r = exact_sum(half, -c.hi);
  const double s = r.hi + (r.lo - c.lo);
  return (error + 0x1p-52 * (std::fabs(r.lo) + std::fabs(c.lo))) * (1.0 + 0x1p-50) < shrunk(s);
}

}  // namespace

// The candidate q is v rounded to the format's precision by v.hi (and v.lo's
// sign when v.hi is a midpoint): dividing by the quantum (a power of two) is
// exact, so is the multiplication back, and nearbyint is exact below 2^53.
// Any candidate would be safe: the test below only accepts q when the whole
// enclosure lies strictly inside q's rounding interval (q - g_below/2,
// q + g_above/2), g the gaps to q's neighbours; a real on the boundary itself
// (a tie) is never decided here.
//
// Arithmetic: v.hi - q is exact (both are multiples of v.hi's double ulp,
// since the format has at most 53 bits, and |v.hi - q| <= quantum / 2), so
// d = (v.hi - q) + v.lo is an exact double-word for v - q.
//
// Zero: a candidate 0 (|v| below half the smallest subnormal) is decided as
// the zero of x's sign when the enclosure also excludes 0 itself.
std::optional<double> decided_rounding(DoubleWord v, double error, const Format& format) {
  if (!std::isfinite(v.hi) || !std::isfinite(error) || v.hi == 0.0) return std::nullopt;
  const double step = quantum(v.hi, format);
  const double scaled = v.hi / step;
  double nearest = std::nearbyint(scaled);
  // v.hi on a midpoint: v.lo says on which side v is.
  if (std::fabs(scaled - nearest) == 0.5 && v.lo != 0.0) nearest = std::floor(scaled) + (v.lo > 0.0 ? 1.0 : 0.0);
  const double q = nearest * step;
  if (std::fabs(q) > largest_finite(format)) return std::nullopt;

  if (q == 0.0) {
    const double half = step / 2;  // step is the subnormal spacing here
    const DoubleWord magnitude = v.hi > 0 ? v : DoubleWord{-v.hi, -v.lo};
    const bool excludes_zero = strictly_below(dw_neg(magnitude), error, 0.0);
    if (!excludes_zero || !strictly_below(magnitude, error, half)) return std::nullopt;
    return v.hi > 0 ? 0.0 : -0.0;
  }

  const double magnitude = std::fabs(q);
  const double gap_away = quantum(q, format);
  // Just below a power of two in a normal binade the spacing halves.
  const bool power_of_two = std::ldexp(1.0, std::ilogb(magnitude)) == magnitude;
  const double gap_toward = power_of_two && std::ilogb(magnitude) > format.min_exponent ? gap_away / 2 : gap_away;
  const double half_up = (q > 0 ? gap_away : gap_toward) / 2;
  const double half_down = (q > 0 ? gap_toward : gap_away) / 2;

  const DoubleWord d = exact_sum(v.hi - q, v.lo);
  if (!strictly_below(d, error, half_up) || !strictly_below(dw_neg(d), error, half_down)) return std::nullopt;
  return q;
}

// For x in the enclosure, |x| >= |v.hi| (1 - 2^-52) - error, so error <=
// 2^-100 |v.hi| (1 - 2^-50) gives |v - x| <= error <= 2^-100 |x|; the
// threshold is computed with one rounding (of the factor), hence 2^-50.
bool good_as_exact(DoubleWord v, double error) {
  return std::isfinite(error) && error <= exact_relative_accuracy * shrunk(std::fabs(v.hi));
}

}  // namespace pecheck::reference
