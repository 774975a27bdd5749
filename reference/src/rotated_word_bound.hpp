// The first step's double-word cos and sin carried through the rotation
// with a rigorous bound (the rotated-output oracle's cheap tier).
#pragma once

#include <cmath>

#include "double_word.hpp"

namespace pecheck::reference {

// The first step's bound through the rotation. With c, s the double-word
// cos and sin within ec, es of the exact ones (first_step.hpp) and the inputs
// exact doubles:
//   P1 = dw_mul(c, x_a), P2 = dw_mul(s, x_b): each within 2^-103 of the
//        exact product of its operands (JMP17, double_word.hpp), which is
//        within |x_a| ec (|x_b| es) of x_a cos (x_b sin);
//   t = dw_add(P1, -P2): within 2^-104 |P1 - P2| <= 2^-104 (|P1| + |P2|);
//   out = dw_mul(t, A) when A != 1: within 2^-103 |out| more, and A times
//        the error of t.
// Every |.| of a double-word is taken of its leading word, which is within
// 2^-52 of it: the factor 2 on the 2^-103 and 2^-104 terms covers that
// and the bound's own roundings, and the final 1 + 2^-40 the products of
// the error terms (about ten operations, each within 2^-53).
struct BoundedWord {
  DoubleWord value;
  double error;
};

inline BoundedWord bounded_combination(DoubleWord c, double c_error, double x, DoubleWord s, double s_error, double y,
                                       double factor) {
  // x c + y s, within the returned error of the exact value.
  const DoubleWord p1 = dw_mul(c, DoubleWord{x, 0.0});
  const DoubleWord p2 = dw_mul(s, DoubleWord{y, 0.0});
  const DoubleWord t = dw_add(p1, p2);
  const double magnitude = std::fabs(p1.hi) + std::fabs(p2.hi);
  double error = std::fabs(x) * c_error + std::fabs(y) * s_error + 0x1p-102 * magnitude + 0x1p-103 * magnitude;
  DoubleWord out = t;
  if (factor != 1.0) {
    out = dw_mul(t, DoubleWord{factor, 0.0});
    error = error * std::fabs(factor) + 0x1p-102 * std::fabs(out.hi);
  }
  return {out, error * (1.0 + 0x1p-40)};
}

}  // namespace pecheck::reference
