// An angle wrapped into [-pi, pi], as the frequency fit and the position
// search take it, millions of times a detection.
#pragma once

#include <cmath>
#include <numbers>

namespace pecheck::validate {

// std::nearbyint(x), bit for bit, without the library call (which the
// default x86-64 target cannot inline): below 2^51 in magnitude, adding and
// subtracting 1.5 * 2^52 rounds x to an integer in the current rounding mode,
// as nearbyint does, and the sign is x's (nearbyint(-0.25) is -0); larger
// values, infinities and NaN go to nearbyint itself.
inline double nearest_integer(double x) {
  constexpr double two_51 = 0x1p51;
  constexpr double shifter = 0x1.8p52;
  if (!(std::fabs(x) < two_51)) return std::nearbyint(x);
  const double shifted = x + shifter;  // kept: without -ffast-math (x + c) - c is no identity
  return std::copysign(shifted - shifter, x);
}

inline double wrap(double angle) {
  constexpr double two_pi = 2.0 * std::numbers::pi;
  return angle - two_pi * nearest_integer(angle / two_pi);
}

}  // namespace pecheck::validate
