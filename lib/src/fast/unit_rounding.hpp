// float16 and bfloat16 bits of a double in [-1, 1], rounded to nearest even,
// written so the compiler can vectorise a loop of them (no branches, no
// variable shifts): the fast path's hot conversion. On that interval they
// give the same bits as round_to_float16_bits / round_to_bfloat16_bits
// (half_bits.hpp), which handle every double; lib/tests checks the two
// against each other on ties, subnormals and random values.
#pragma once

#include <algorithm>
#include <bit>
#include <cstdint>

namespace pecheck {

namespace detail {

// How the rounding works, for a format with P significand bits whose normal
// numbers start at 2^e_min:
//
// Let 2^e be the binade of |x| (its exponent bits alone), raised to 2^e_min
// below the normal range. The format's spacing there is 2^(e - P + 1).
// M = 1.5 * 2^(e + 53 - P) lies in [2^(e+53-P), 2^(e+54-P)), where double's
// spacing is exactly 2^(e - P + 1), and |x| < 2^(e+1) keeps M + |x| in that
// binade (2^(e+1) < 2^(e+52-P) for P <= 50), so
// fl(|x| + M) is M plus |x| rounded to a multiple of the format's spacing,
// ties to even (M is an even multiple of it), and subtracting M is exact. The
// result y is |x| correctly rounded to the format, as a double (for
// |x| <= 1 there is no overflow). Its bits are then only moved: a normal y
// keeps its significand's top P-1 bits and rebiases its exponent; a subnormal
// y is an integer multiple of the smallest subnormal 2^(e_min - P + 1).
template <int Precision, int MinExponent, int Bias>
inline std::uint16_t unit_interval_bits(double x) {
  constexpr int stored_bits = Precision - 1;
  constexpr int dropped_bits = 52 - stored_bits;
  constexpr std::uint64_t exponent_mask = std::uint64_t{0x7ff} << 52;
  constexpr double smallest_normal = std::bit_cast<double>(static_cast<std::uint64_t>(1023 + MinExponent) << 52);
  constexpr double shifter_scale = 1.5 * static_cast<double>(std::uint64_t{1} << (53 - Precision));
  constexpr double per_subnormal =
      std::bit_cast<double>(static_cast<std::uint64_t>(1023 + stored_bits - MinExponent) << 52);
  constexpr std::uint64_t rebias = static_cast<std::uint64_t>(1023 - Bias) << stored_bits;

  const std::uint64_t bits = std::bit_cast<std::uint64_t>(x);
  const double magnitude = std::bit_cast<double>(bits & ~(std::uint64_t{1} << 63));
  const double binade = std::max(std::bit_cast<double>(bits & exponent_mask), smallest_normal);
  const double shifter = binade * shifter_scale;
  const double rounded = (magnitude + shifter) - shifter;
  const std::uint64_t normal = (std::bit_cast<std::uint64_t>(rounded) >> dropped_bits) - rebias;
  const auto subnormal = static_cast<std::uint64_t>(static_cast<std::int64_t>(rounded * per_subnormal));
  const std::uint64_t magnitude_bits = rounded < smallest_normal ? subnormal : normal;
  return static_cast<std::uint16_t>(((bits >> 63) << 15) | magnitude_bits);
}

}  // namespace detail

// For |x| <= 1 only (every encoding value): the same bits as round_to_float16_bits(x).
inline std::uint16_t unit_interval_float16_bits(double x) { return detail::unit_interval_bits<11, -14, 15>(x); }

// For |x| <= 1 only: the same bits as round_to_bfloat16_bits(x).
inline std::uint16_t unit_interval_bfloat16_bits(double x) { return detail::unit_interval_bits<8, -126, 127>(x); }

}  // namespace pecheck
