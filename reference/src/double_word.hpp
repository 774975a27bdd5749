// Double-word arithmetic for the oracle's first step, with the relative error
// bound of every operation, so the first step can carry a rigorous bound.
//
// This is the reference's own copy, not lib's double_double.hpp: a bug shared
// by the oracle and the fast path it checks would hide itself.
//
// The algorithms and bounds are those of M. Joldes, J.-M. Muller, V. Popescu,
// "Tight and rigorous error bounds for basic building blocks of double-word
// arithmetic", ACM TOMS 44(2), 2017 (JMP17), for binary64 with round to
// nearest and u = 2^-53, assuming no underflow or overflow (the first step
// only runs where every intermediate stays far from both; first_step.cpp).
// The constants below round each published bound up to a power of two.
#pragma once

#include <cmath>

namespace pecheck::reference {

struct DoubleWord {
  double hi = 0.0;
  double lo = 0.0;  // |lo| <= ulp(hi) / 2 for every result of the operations below
};

// a + b = s + err exactly (Knuth's TwoSum, six operations, no precondition).
inline DoubleWord exact_sum(double a, double b) {
  const double s = a + b;
  const double a_part = s - b;
  const double b_part = s - a_part;
  return {s, (a - a_part) + (b - b_part)};
}

// a + b = s + err exactly when a == 0 or |a| >= |b| (Dekker's Fast2Sum).
inline DoubleWord exact_sum_ordered(double a, double b) {
  const double s = a + b;
  return {s, b - (s - a)};
}

// a * b = p + err exactly (FMA), barring underflow.
inline DoubleWord exact_product(double a, double b) {
  const double p = a * b;
  return {p, std::fma(a, b, -p)};
}

// JMP17 Algorithm 6 (AccurateDWPlusDW): relative error <= 3u^2 / (1 - 4u) < 2^-104.
inline constexpr double dw_add_error = 0x1p-104;
inline DoubleWord dw_add(DoubleWord a, DoubleWord b) {
  const DoubleWord s = exact_sum(a.hi, b.hi);
  const DoubleWord t = exact_sum(a.lo, b.lo);
  const DoubleWord v = exact_sum_ordered(s.hi, s.lo + t.hi);
  return exact_sum_ordered(v.hi, t.lo + v.lo);
}

// JMP17 Algorithm 12 (DWTimesDW3, with FMA): relative error <= 5u^2 < 2^-103.
inline constexpr double dw_mul_error = 0x1p-103;
inline DoubleWord dw_mul(DoubleWord a, DoubleWord b) {
  const DoubleWord c = exact_product(a.hi, b.hi);
  const double cross = std::fma(a.lo, b.hi, std::fma(a.hi, b.lo, a.lo * b.lo));
  return exact_sum_ordered(c.hi, c.lo + cross);
}

inline DoubleWord dw_neg(DoubleWord a) { return {-a.hi, -a.lo}; }

}  // namespace pecheck::reference
