#include "float_bits.hpp"

#include <algorithm>
#include <bit>
#include <cmath>

namespace pecheck::detail {

namespace {

// An IEEE-754 binary interchange layout: sign, exponent_bits, fraction_bits.
struct BitLayout {
  int exponent_bits;
  int fraction_bits;
};

BitLayout layout_of(FormatId format) {
  switch (format) {
    case FormatId::float64: return {11, 52};
    case FormatId::float32: return {8, 23};
    case FormatId::float16: return {5, 10};
    case FormatId::bfloat16: return {8, 7};
  }
  return {11, 52};
}

constexpr int double_fraction_bits = 52;
constexpr std::uint64_t double_fraction_mask = (std::uint64_t{1} << double_fraction_bits) - 1;
constexpr std::uint64_t double_exponent_all_ones = std::uint64_t{0x7ff} << double_fraction_bits;

}  // namespace

int storage_bytes(FormatId format) {
  const BitLayout layout = layout_of(format);
  return (1 + layout.exponent_bits + layout.fraction_bits) / 8;
}

std::string_view format_name(FormatId format) {
  switch (format) {
    case FormatId::float64: return "float64";
    case FormatId::float32: return "float32";
    case FormatId::float16: return "float16";
    case FormatId::bfloat16: return "bfloat16";
  }
  return "float64";
}

double decode_float_bits(std::uint64_t bits, FormatId format) {
  if (format == FormatId::float64) return std::bit_cast<double>(bits);
  const BitLayout layout = layout_of(format);
  const int f = layout.fraction_bits;
  const std::uint64_t exponent_mask = (std::uint64_t{1} << layout.exponent_bits) - 1;
  const bool negative = ((bits >> (layout.exponent_bits + f)) & 1) != 0;
  const std::uint64_t exponent = (bits >> f) & exponent_mask;
  const std::uint64_t fraction = bits & ((std::uint64_t{1} << f) - 1);
  if (exponent == exponent_mask) {
    // Infinity or NaN: built from bits so a signalling NaN stays signalling
    // (a float-to-double conversion would quiet it) and the payload moves to
    // the top of double's fraction, where a conversion would put it.
    const std::uint64_t sign = negative ? std::uint64_t{1} << 63 : 0;
    return std::bit_cast<double>(sign | double_exponent_all_ones | (fraction << (double_fraction_bits - f)));
  }
  const int bias = static_cast<int>(exponent_mask >> 1);
  // Subnormal: fraction * 2^(1 - bias - f); normal: (2^f + fraction) * 2^(exponent - bias - f).
  // Both products are exact in double: at most f + 1 <= 24 significant bits.
  const double magnitude =
      exponent == 0
          ? std::ldexp(static_cast<double>(fraction), 1 - bias - f)
          : std::ldexp(static_cast<double>(fraction | (std::uint64_t{1} << f)), static_cast<int>(exponent) - bias - f);
  return negative ? -magnitude : magnitude;
}

std::optional<std::uint64_t> encode_float_bits(double x, FormatId format) {
  if (format == FormatId::float64) return std::bit_cast<std::uint64_t>(x);
  const BitLayout layout = layout_of(format);
  const int f = layout.fraction_bits;
  const std::uint64_t exponent_mask = (std::uint64_t{1} << layout.exponent_bits) - 1;
  const std::uint64_t double_bits = std::bit_cast<std::uint64_t>(x);
  const std::uint64_t sign = (double_bits >> 63) << (layout.exponent_bits + f);
  if (std::isnan(x)) {
    std::uint64_t payload = (double_bits & double_fraction_mask) >> (double_fraction_bits - f);
    if (payload == 0) payload = std::uint64_t{1} << (f - 1);  // would read back as infinity
    return sign | (exponent_mask << f) | payload;
  }
  if (std::isinf(x)) return sign | (exponent_mask << f);
  const double magnitude = std::fabs(x);
  if (magnitude == 0.0) return sign;
  const int bias = static_cast<int>(exponent_mask >> 1);
  const int min_exponent = 1 - bias;
  const int exponent = std::ilogb(magnitude);
  if (exponent > bias) return std::nullopt;
  // Scaling by a power of two is exact here (the result is never smaller than
  // the input), so the value is in the format exactly when the scaled
  // significand is an integer.
  const int scale = f - std::max(exponent, min_exponent);
  const double significand = std::ldexp(magnitude, scale);
  if (significand != std::floor(significand)) return std::nullopt;
  const auto integer = static_cast<std::uint64_t>(significand);
  if (exponent < min_exponent) return sign | integer;  // subnormal: integer < 2^f
  const auto biased = static_cast<std::uint64_t>(exponent + bias);
  return sign | (biased << f) | (integer - (std::uint64_t{1} << f));
}

}  // namespace pecheck::detail
