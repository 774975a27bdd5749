// Positions where p w comes closest to a zero of sin or cos: there the
// entry is small, so any absolute error of the angle is magnified relative
// to it, and a wrong argument reduction shows first.
#pragma once

#include <cstdint>
#include <vector>

#include "independent_oracle.hpp"

namespace pecheck::testing {

// The continued-fraction denominators below `limit` of alpha (> 0): by
// Lagrange's best-approximation theorem, no p below the next denominator
// brings p alpha closer to an integer than they do.
inline std::vector<std::int64_t> convergent_denominators(HighReal alpha, std::int64_t limit) {
  std::vector<std::int64_t> result;
  HighReal rest = alpha - floor(alpha);
  std::int64_t previous = 0;
  std::int64_t current = 1;
  while (rest != 0) {
    const HighReal inverse = 1 / rest;
    const HighReal quotient = floor(inverse);
    rest = inverse - quotient;
    if (quotient >= limit) break;
    const std::int64_t next = quotient.convert_to<std::int64_t>() * current + previous;
    if (next >= limit) break;
    previous = current;
    current = next;
    result.push_back(current);
  }
  return result;
}

// Positions below `limit` near zeros of sin(p w) (p w / pi near an integer:
// alpha = w / pi) and of cos(p w) (2 p w / pi near an odd integer: alpha =
// 2 w / pi, whose convergents p/q alternate between even and odd p), with
// their neighbours.
inline std::vector<std::int64_t> positions_near_zeros(const HighReal& w, std::int64_t limit) {
  const HighReal pi = boost::math::constants::pi<HighReal>();
  std::vector<std::int64_t> positions;
  for (const HighReal& alpha : {HighReal(w / pi), HighReal(2 * w / pi)}) {
    for (std::int64_t q : convergent_denominators(alpha, limit)) {
      for (std::int64_t p : {q - 1, q, q + 1}) {
        if (p > 0 && p < limit) positions.push_back(p);
      }
    }
  }
  return positions;
}

}  // namespace pecheck::testing
