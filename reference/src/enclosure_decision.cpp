#include "enclosure_decision.hpp"

#include <algorithm>
#include <bit>
#include <cstdint>
#include <cmath>

namespace pecheck::reference {

// (The nonzero case is nonzero_rounding, in the header, with its reasoning.)
//
// Zero: a candidate 0 (|v| below half the smallest subnormal) is decided as
// the zero of x's sign when the enclosure also excludes 0 itself.
std::optional<double> decided_rounding(DoubleWord v, double error, const Format& format) {
  // Below 2^-960 a float64 quantum would leave power_of_two's range: MPFR's
  // business (the first step gives up far above, at 2^-400).
  if (!std::isfinite(v.hi) || !std::isfinite(error) || !(std::fabs(v.hi) >= 0x1p-960)) return std::nullopt;
  const double step = quantum(v.hi, format);
  const double scaled = v.hi / step;
  double nearest = std::nearbyint(scaled);
  // v.hi on a midpoint: v.lo says on which side v is.
  if (std::fabs(scaled - nearest) == 0.5 && v.lo != 0.0) nearest = std::floor(scaled) + (v.lo > 0.0 ? 1.0 : 0.0);
  const double q = nearest * step;

  if (q == 0.0) {
    const double half = step / 2;  // step is the subnormal spacing here
    const DoubleWord magnitude = v.hi > 0 ? v : DoubleWord{-v.hi, -v.lo};
    const bool excludes_zero = strictly_below(dw_neg(magnitude), error, 0.0);
    if (!excludes_zero || !strictly_below(magnitude, error, half)) return std::nullopt;
    return v.hi > 0 ? 0.0 : -0.0;
  }

  const NonzeroRounding rounding = nonzero_rounding(v.hi, v.lo, error, format);
  if (!rounding.decided) return std::nullopt;
  return rounding.value;
}

}  // namespace pecheck::reference
