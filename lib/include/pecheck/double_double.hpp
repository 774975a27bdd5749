// Unevaluated sums of two doubles (about 106 significant bits), the carrier
// of exact values between the reference and lib: lib never sees Boost, yet an
// exact value is held to far below a float64 ulp.
#pragma once

#include <cmath>

namespace pecheck {

struct DoubleDouble {
  double hi = 0.0;
  double lo = 0.0;  // |lo| <= ulp(hi) / 2
};

// Error-free transformations (Knuth's two-sum, FMA two-product).
inline DoubleDouble two_sum(double a, double b) {
  const double s = a + b;
  const double bb = s - a;
  const double err = (a - (s - bb)) + (b - bb);
  return {s, err};
}

inline DoubleDouble quick_two_sum(double a, double b) {  // requires |a| >= |b|
  const double s = a + b;
  return {s, b - (s - a)};
}

inline DoubleDouble two_prod(double a, double b) {
  const double p = a * b;
  return {p, std::fma(a, b, -p)};
}

}  // namespace pecheck
