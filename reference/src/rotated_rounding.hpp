// Rounding an exact double-word hi + lo (|lo| <= ulp(hi) / 2) once to a
// format, without MPFR: what the computation models and the oracle's exact
// products need.
#pragma once

#include <cmath>

#include "pecheck/format.hpp"
#include "pecheck/reference/nearest_rounding.hpp"

namespace pecheck::reference {

// RN_format(hi + lo). For float64 that is hi. For a narrower format (at most
// 24 bits), hi alone rounds the same unless hi is a midpoint of the format
// (midpoints are doubles; any other double lies at least 2^28 double ulps
// from one, and |lo| is at most half of one), and then lo's sign picks the
// side. hi is a midpoint exactly when r = RN(hi) != hi and r + 2 (hi - r),
// the value across, is in the format (otherwise it falls strictly between r
// and its neighbour, the gap halving at a binade edge included); hi - r and
// r + 2 (hi - r) are exact (both near hi, multiples of the format's spacing
// halved).
inline double round_word(double hi, double lo, const Format& format) {
  if (format.precision >= 53 || !std::isfinite(hi)) return pecheck::round_to_format(hi, format);
  const double r = round_nearest(hi, format);
  if (lo == 0.0 || r == hi || !std::isfinite(r)) return r;
  const double d = hi - r;
  const double across = r + 2.0 * d;
  if (!holds_value(across, format)) return r;
  return (lo > 0.0) == (d > 0.0) ? across : r;
}

}  // namespace pecheck::reference
