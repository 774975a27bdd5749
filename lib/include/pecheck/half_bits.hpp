// The hot-path conversions between double and the 16-bit storage formats
// (float16, bfloat16), declared in format.hpp and defined here inline so the
// fast implementation can convert one element at a time without a call.
//
// They work on the bit patterns with integer operations and selects (the one
// floating-point operation, widening a subnormal, is an exact product of
// normal doubles), so the results cannot depend on the rounding mode, on FMA
// contraction or on flush-to-zero. They round once, from the double itself;
// rounding through float first would round twice. The compiler may turn a
// select into a branch; for data in one regime (the encoding's values are all
// normal) it is always predicted. About 3 ns per element, scalar, measured
// on the build machine. format_test.cpp and format_rounding_test.cpp check
// them bit for bit against the generic round_to_format / to_bits / from_bits.
#pragma once

#include <algorithm>
#include <bit>
#include <cstdint>

namespace pecheck::detail {

// A binary format with 1 sign bit, StorageBits - Precision exponent bits,
// Precision - 1 stored significand bits, exponent bias MaxExponent.
template <int Precision, int MaxExponent, int StorageBits>
struct NarrowFormat {
  static_assert(Precision >= 2 && Precision < 53 && StorageBits <= 32);
  static constexpr int mantissa_bits = Precision - 1;
  static constexpr int exponent_bits = StorageBits - Precision;
  static constexpr int bias = MaxExponent;
  // Double significand bits that do not fit in a normal number of the format.
  static constexpr int dropped_bits = 52 - mantissa_bits;
  static constexpr std::uint64_t infinity_bits = ((std::uint64_t{1} << exponent_bits) - 1) << mantissa_bits;
  static constexpr std::uint64_t quiet_bit = std::uint64_t{1} << (mantissa_bits - 1);
  static constexpr std::uint64_t fraction_mask = (std::uint64_t{1} << mantissa_bits) - 1;
  // 2^(1 - bias - mantissa_bits), the smallest subnormal, built from its bits.
  static constexpr double subnormal_quantum =
      std::bit_cast<double>(static_cast<std::uint64_t>(1023 + 1 - bias - mantissa_bits) << 52);
};

inline constexpr std::uint64_t double_sign_bit = std::uint64_t{1} << 63;
inline constexpr std::uint64_t double_fraction_mask = (std::uint64_t{1} << 52) - 1;
inline constexpr std::uint64_t double_infinity_bits = std::uint64_t{0x7ff} << 52;

template <typename F>
inline std::uint64_t round_double_to_narrow_bits(double x) {
  const std::uint64_t bits = std::bit_cast<std::uint64_t>(x);
  const std::uint64_t sign = (bits >> 63) << (F::exponent_bits + F::mantissa_bits);
  const std::uint64_t magnitude = bits & ~double_sign_bit;
  const int exponent_field = static_cast<int>(magnitude >> 52);
  // The significand with its implicit bit (none for zero and double subnormals,
  // which all round to zero in a format whose exponent range is narrower).
  const std::uint64_t significand =
      (magnitude & double_fraction_mask) | (static_cast<std::uint64_t>(exponent_field != 0) << 52);

  // Biased exponent the value would have in the format. At 0 or below the
  // value is subnormal there: each step further down shifts one more bit out.
  const int target_exponent = exponent_field - 1023 + F::bias;
  const int subnormal_extra = std::max(1 - target_exponent, 0);
  // Past 63 bits every significand (< 2^53) is below half the smallest
  // subnormal, so clamping the shift keeps the answer (zero) and the shift defined.
  const int shift = std::min(F::dropped_bits + subnormal_extra, 63);
  // For a normal result the implicit bit, shifted to 2^mantissa_bits, adds the
  // missing 1 to (target_exponent - 1): exponent and fraction come out of one add,
  // and a rounding carry out of the fraction moves into the exponent by itself
  // (largest subnormal to smallest normal, largest finite to infinity).
  const std::uint64_t exponent_base = static_cast<std::uint64_t>(std::max(target_exponent - 1, 0)) << F::mantissa_bits;
  std::uint64_t result = exponent_base + (significand >> shift);

  // Round to nearest, ties to even: add one when the first dropped bit is set
  // and either a later dropped bit is set or the kept part is odd.
  const std::uint64_t round_bit = (significand >> (shift - 1)) & 1;
  const std::uint64_t sticky = (significand & ((std::uint64_t{1} << (shift - 1)) - 1)) != 0 ? 1 : 0;
  result += round_bit & (sticky | (result & 1));

  // Overflow (including a double infinity) saturates to infinity.
  result = std::min(result, F::infinity_bits);
  // NaN: the top payload bits survive, and the quiet bit is set so a
  // signalling NaN never turns into infinity or traps later.
  const std::uint64_t nan = F::infinity_bits | F::quiet_bit | ((magnitude & double_fraction_mask) >> F::dropped_bits);
  result = magnitude > double_infinity_bits ? nan : result;
  return sign | result;
}

template <typename F>
inline double narrow_bits_to_double(std::uint64_t bits) {
  const std::uint64_t sign = ((bits >> (F::exponent_bits + F::mantissa_bits)) & 1) << 63;
  const std::uint64_t exponent_field = (bits >> F::mantissa_bits) & ((std::uint64_t{1} << F::exponent_bits) - 1);
  const std::uint64_t fraction = bits & F::fraction_mask;
  const std::uint64_t all_ones = (std::uint64_t{1} << F::exponent_bits) - 1;
  // Normal numbers, infinities and NaNs: rebias the exponent, widen the fraction
  // (a NaN payload lands in the top fraction bits, where the quiet bit is).
  const std::uint64_t wide_exponent = exponent_field == all_ones ? 0x7ff : exponent_field + 1023 - F::bias;
  const double normal = std::bit_cast<double>(sign | (wide_exponent << 52) | (fraction << F::dropped_bits));
  // Subnormals: fraction * smallest subnormal, exact (fraction < 2^mantissa_bits).
  const double subnormal =
      std::bit_cast<double>(sign | std::bit_cast<std::uint64_t>(static_cast<double>(fraction) * F::subnormal_quantum));
  return exponent_field == 0 ? subnormal : normal;
}

using Float16Layout = NarrowFormat<11, 15, 16>;
using BFloat16Layout = NarrowFormat<8, 127, 16>;

}  // namespace pecheck::detail

namespace pecheck {

inline std::uint16_t round_to_float16_bits(double x) {
  return static_cast<std::uint16_t>(detail::round_double_to_narrow_bits<detail::Float16Layout>(x));
}

inline std::uint16_t round_to_bfloat16_bits(double x) {
  return static_cast<std::uint16_t>(detail::round_double_to_narrow_bits<detail::BFloat16Layout>(x));
}

inline double float16_bits_to_double(std::uint16_t bits) {
  return detail::narrow_bits_to_double<detail::Float16Layout>(bits);
}

namespace detail {

// bfloat16 is float32's top half, so a normal value's exponent and fraction
// land in double's fields with one shift and its exponent is rebiased
// (127 -> 1023) with one add: a few integer operations, where the general
// path also widens the subnormal reading and selects. Exact: the same bits as
// narrow_bits_to_double for every normal pattern (format_test.cpp checks all).
inline bool bfloat16_is_normal(std::uint16_t bits) {
  // The exponent field neither 0 (zeros, subnormals) nor all ones (infinities, NaNs).
  return (static_cast<std::uint32_t>(bits & 0x7f80U) - 0x80U) < 0x7f00U;
}
inline std::uint64_t bfloat16_normal_to_double_bits(std::uint16_t bits) {
  return (static_cast<std::uint64_t>(bits & 0x8000U) << 48) +
         ((static_cast<std::uint64_t>(bits & 0x7fffU) << 45) + (std::uint64_t{1023 - 127} << 52));
}

}  // namespace detail

inline double bfloat16_bits_to_double(std::uint16_t bits) {
  if (detail::bfloat16_is_normal(bits)) return std::bit_cast<double>(detail::bfloat16_normal_to_double_bits(bits));
  return detail::narrow_bits_to_double<detail::BFloat16Layout>(bits);
}

}  // namespace pecheck
