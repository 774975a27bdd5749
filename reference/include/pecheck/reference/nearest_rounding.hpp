// Rounding a double to a format's nearest value (ties to even) by its bits:
// what lib's round_to_format computes, at a few operations where a value of
// the format's normal range comes in (the hot paths of the rotated-output
// oracle, its models and their comparison round tens of millions of values).
// Everything else (zeros, subnormal results, the top binade that may
// overflow, NaN and infinities) goes to round_to_format.
#pragma once

#include <bit>
#include <cstdint>

#include "pecheck/format.hpp"

namespace pecheck::reference {

// For a double x = (-1)^s 1.f 2^e with min_exponent <= e < max_exponent of
// the format (p bits), the nearest format value keeps the top p - 1 bits of
// f: adding half a unit of the kept last place, less one unless that place
// is odd (ties to even), and clearing the dropped bits rounds the magnitude
// to nearest even; a carry out of f moves to the exponent, which is right
// (1.11..1 rounds up to 2.0) and stays below 2^max_exponent + 1 here.
inline double round_nearest(double x, const Format& format) {
  if (format.precision >= 53) return x;
  const std::uint64_t bits = std::bit_cast<std::uint64_t>(x);
  const int e = static_cast<int>((bits >> 52) & 0x7ff) - 1023;
  if (e < format.min_exponent || e >= format.max_exponent) return round_to_format(x, format);
  const int shift = 53 - format.precision;
  const std::uint64_t kept_lsb = (bits >> shift) & 1U;
  const std::uint64_t half = std::uint64_t{1} << (shift - 1);
  const std::uint64_t rounded = (bits + half - 1 + kept_lsb) & ~((std::uint64_t{1} << shift) - 1);
  return std::bit_cast<double>(rounded);
}

inline bool holds_value(double x, const Format& format) { return round_nearest(x, format) == x || x != x; }

}  // namespace pecheck::reference
