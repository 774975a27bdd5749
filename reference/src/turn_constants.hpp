// The constants of the first step (first_step.cpp), each the double-word
// nearest to its real value, computed once with MPFR.
//
// A nearest double-word hi + lo of a real c (hi = RN(c), lo = RN(c - hi)) is
// within u |c - hi| <= u^2 |c| = 2^-106 |c| of it; MPFR's intermediate at
// 192 bits adds 2^-191 |c|, which the first step's final 2^-40 margin absorbs.
#pragma once

#include <array>
#include <cstdint>

#include "double_word.hpp"

namespace pecheck::reference {

// The turn is cut into steps of 1 / table_steps; an angle is a table point
// plus a remainder of at most half a step (first_step.cpp).
inline constexpr std::int64_t table_steps_log2 = 10;
inline constexpr std::int64_t table_steps = std::int64_t{1} << table_steps_log2;

// Relative error of every constant below (see the header comment).
inline constexpr double constant_error = 0x1p-106;

struct TurnConstants {
  // sin and cos of 2 pi j / table_steps; exact (0 or +-1) at the quarter turns,
  // because MPFR's sinu/cosu evaluate sin(2 pi x / u) without rounding pi.
  // Word by word (separate arrays), so a vectorised loop gathers them.
  std::array<double, table_steps> sin_hi, sin_lo, cos_hi, cos_lo;
  DoubleWord radians_per_step;  // 2 pi / table_steps
  // Taylor coefficients (-1)^k / (2k+1)! (sin) and (-1)^k / (2k)! (cos), from
  // the x^3 and x^2 terms up: sin x = x + x z S(z), cos x = 1 + z C(z), z = x^2.
  std::array<DoubleWord, 4> sin_tail;  // -1/3!, 1/5!, -1/7!, 1/9!
  std::array<DoubleWord, 5> cos_tail;  // -1/2!, 1/4!, -1/6!, 1/8!, -1/10!
};

// Built on first use (thread-safe), shared by every evaluator.
const TurnConstants& turn_constants();

}  // namespace pecheck::reference
