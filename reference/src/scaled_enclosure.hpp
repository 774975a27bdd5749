// An enclosure scaled by an exact double (the attention factor), with its
// bound: shared by the rotary tiers that fold the factor into their values.
#pragma once

#include <cmath>

#include "double_word.hpp"

namespace pecheck::reference {

// v = factor t for a double-word t = hi + lo within `error` of the exact
// value: P = hi factor exactly (FMA),
// t' = RN(lo factor), s = RN(P.lo + t'), and hi + lo <- P.hi + s exactly
// (TwoSum). |factor t - (P.hi + s)| <= 2^-53 (|t'| + |s|), so the error is
// |factor| error + 2^-53 (|t'| + |s|), computed within 1 + 2^-50.
inline void scale_enclosure(double factor, DoubleWord& value, double& error) {
  if (factor == 1.0) return;
  const DoubleWord product = exact_product(value.hi, factor);
  const double t = value.lo * factor;
  const double s = product.lo + t;
  value = exact_sum(product.hi, s);
  error = (std::fabs(factor) * error + 0x1p-53 * (std::fabs(t) + std::fabs(s))) * (1.0 + 0x1p-50);
}

}  // namespace pecheck::reference
