// Finding the positions where an encoding entry comes closest to a zero of
// sin or cos: the hard inputs for a relative-error claim, since there the
// value is small and any absolute error in the angle is magnified.
//
// rho(p) is the distance in turns from p f to the nearest zero of the
// function: multiples of 1/2 for sin, 1/4 + multiples of 1/2 for cos.
#pragma once

#include <bit>
#include <cmath>
#include <cstdint>

#include "quad_reference.hpp"

namespace pecheck::testing {

// rho for the entry's function, in quad precision (p f exact to 2^-113 relative).
inline Quad quad_rho(ColumnKind kind, Quad f, std::int64_t position) {
  Quad x = 2 * static_cast<Quad>(position) * f;  // zeros of sin at integers
  if (kind == ColumnKind::cos) x -= Quad(0.5);   // zeros of cos at half-integers
  return fabsq(x - rintq(x)) / 2;
}

// The sin zero approached most closely by some 0 < p < limit: by Lagrange's
// best-approximation theorem, min over p < q_(k+1) of ||p alpha|| is reached
// at q_k, so the answer is the largest continued-fraction denominator of
// alpha = 2f below the limit. Quad carries alpha to 113 bits; denominators up
// to 2^24 use about 48 of them.
inline std::int64_t closest_sin_zero_position(Quad f, std::int64_t limit) {
  Quad rest = 2 * f;
  rest -= floorq(rest);
  std::int64_t previous = 0;  // q_(-1)
  std::int64_t current = 1;   // q_0
  while (rest != 0) {
    const Quad inverse = 1 / rest;
    const Quad quotient = floorq(inverse);
    rest = inverse - quotient;
    const Quad next = quotient * current + previous;
    if (next >= limit) break;
    previous = current;
    current = static_cast<std::int64_t>(next);
  }
  return current;
}

struct ClosestApproach {
  std::int64_t position = 0;
  double rho = 1.0;  // in turns, to about 2^-50 absolute
};

// Scans every 0 < p < limit (limit <= 2^24) for the closest approach of p f
// to a zero of cos and of sin, in double: p f is formed as p f_hi (exact,
// f_hi has 29 bits) minus its nearest integer, plus p f_lo.
struct ScanResult {
  ClosestApproach sin;
  ClosestApproach cos;
};

inline ScanResult scan_closest_zeros(double f, std::int64_t limit) {
  const double f_hi = std::bit_cast<double>(std::bit_cast<std::uint64_t>(f) & ~((std::uint64_t{1} << 24) - 1));
  const double f_lo = f - f_hi;
  // Round to the nearest integer by the 1.5 * 2^52 trick (|x| < 2^51 here):
  // plain additions, so the loop needs no libm call.
  const auto nearest_integer = [](double x) { return (x + 0x1.8p52) - 0x1.8p52; };
  ScanResult result;
  for (std::int64_t p = 1; p < limit; ++p) {
    const double pd = static_cast<double>(p);
    double a = pd * f_hi;
    a -= nearest_integer(a);
    const double quarter_turns = 4.0 * (a + pd * f_lo);
    const double k = nearest_integer(quarter_turns);
    const double rho = std::fabs(quarter_turns - k) / 4.0;
    // An even number of quarter turns is a zero of sin, an odd one of cos.
    ClosestApproach& best = (static_cast<std::int64_t>(k) & 1) == 0 ? result.sin : result.cos;
    if (rho < best.rho) best = {p, rho};
  }
  return result;
}

}  // namespace pecheck::testing
