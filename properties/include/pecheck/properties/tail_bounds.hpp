// The confidence intervals statistical checks are held to.
//
// A correct implementation must fail a statistical check less than once in
// 10^9 runs, so each interval below holds with probability at least 1 - delta
// for the delta it is given (false_alarm_probability, split between the
// events a check combines). The bounds are non-asymptotic: no normal
// approximation, no "large n".
#pragma once

namespace pecheck::properties {

inline constexpr double false_alarm_probability = 1e-9;

struct Interval {
  double lower = 0.0;
  double upper = 0.0;
  bool contains(double x) const { return x >= lower && x <= upper; }
};

// t = ln(2 / delta): the exponent at which two tails of exp(-t) each sum to delta.
double two_sided_exponent(double delta);

// X ~ chi-square with k degrees of freedom. Laurent & Massart (2000), Lemma 1:
//   P(X - k >= 2 sqrt(k t) + 2 t) <= exp(-t),   P(k - X >= 2 sqrt(k t)) <= exp(-t).
// With t = ln(2 / delta), X / k lies in [1 - 2 sqrt(t/k), 1 + 2 sqrt(t/k) + 2 t/k]
// with probability at least 1 - delta.
Interval chi_square_mean_interval(double k, double delta);

// X = sum a_i Z_i^2, a_i >= 0 known, Z_i iid N(0, 1); the same lemma gives
//   X in [A - 2 |a|_2 sqrt(t), A + 2 |a|_2 sqrt(t) + 2 |a|_inf t],  A = sum a_i,
// with probability at least 1 - delta.
Interval weighted_chi_square_interval(double sum, double norm2, double max, double delta);

// The cosine between a uniformly random direction in R^d (the direction of a
// N(0, sigma^2 I) vector) and a fixed unit vector: P(|cos| >= c) <= 2 exp(-d c^2 / 2)
// (the spherical cap bound, K. Ball, "An elementary introduction to modern
// convex geometry", 1997, Lemma 2.2, on both caps). The c below which all of
// `pairs` such cosines stay with probability at least 1 - delta (union bound).
double cosine_union_bound(double d, double pairs, double delta);

// gamma_n = n u / (1 - n u) (Higham, Accuracy and Stability, section 3.1): the
// relative error bound of n rounded operations with unit roundoff u.
double gamma_n(double n, double unit_roundoff);

}  // namespace pecheck::properties
