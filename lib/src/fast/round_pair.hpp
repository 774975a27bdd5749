// One double-double rounded once to a format: the rotary caches' attention
// factor, multiplied exactly (two_prod), is rounded so.
#pragma once

#include "pecheck/double_double.hpp"
#include "pecheck/format.hpp"

namespace pecheck {

// RN(hi + lo) in `format`, for |lo| <= ulp(hi) / 2 as a normalised pair has:
// the rounding of hi alone, except at a midpoint, where lo decides.
inline double round_pair(DoubleDouble v, const Format& format) {
  const double r = round_to_format(v.hi, format);
  if (v.lo == 0.0 || format.id == FormatId::float64) return r;  // float64: hi is RN(hi + lo) already
  // hi is a midpoint exactly when it lies half way between r and the format's
  // value s = r + 2 (hi - r) on its other side (both steps exact in double).
  const double half_step = v.hi - r;
  if (half_step == 0.0) return r;
  const double s = r + 2.0 * half_step;
  if (!is_representable(s, format)) return r;
  // A midpoint: the pair lies strictly on lo's side of it.
  return (v.lo > 0.0) == (s > r) ? s : r;
}

}  // namespace pecheck
