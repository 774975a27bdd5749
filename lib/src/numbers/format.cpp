#include "pecheck/format.hpp"

#include <algorithm>
#include <array>
#include <bit>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <limits>
#include <stdexcept>

// Everything here is generic over the Format fields and uses only exact
// double operations (power-of-two scaling, floor, comparisons), so it serves
// as the independent check of the bit-twiddling hot path in half_bits.hpp.

namespace pecheck {

namespace {

constexpr std::array<Format, 4> formats{{
    {FormatId::float64, "float64", 53, -1022, 1023, 64},
    {FormatId::float32, "float32", 24, -126, 127, 32},
    {FormatId::float16, "float16", 11, -14, 15, 16},
    {FormatId::bfloat16, "bfloat16", 8, -126, 127, 16},
}};

int mantissa_bits(const Format& format) { return format.precision - 1; }
int exponent_bits(const Format& format) { return format.storage_bits - format.precision; }
// IEEE-754 binary formats have bias = emax.
int exponent_bias(const Format& format) { return format.max_exponent; }

std::uint64_t low_mask(int bits) { return bits >= 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << bits) - 1; }

constexpr std::uint64_t double_fraction_mask = (std::uint64_t{1} << 52) - 1;

}  // namespace

const Format& format_of(FormatId id) {
  for (const Format& format : formats) {
    if (format.id == id) return format;
  }
  throw std::invalid_argument("unknown FormatId " + std::to_string(static_cast<int>(id)));
}

std::optional<FormatId> parse_format(std::string_view name) {
  for (const Format& format : formats) {
    if (format.name == name) return format.id;
  }
  return std::nullopt;
}

double largest_finite(const Format& format) {
  // (2^p - 1) * 2^(emax - p + 1) = (2 - 2^(1-p)) * 2^emax
  return std::ldexp(std::ldexp(1.0, format.precision) - 1.0, format.max_exponent - mantissa_bits(format));
}

double smallest_subnormal(const Format& format) {
  return std::ldexp(1.0, format.min_exponent - mantissa_bits(format));
}

double smallest_normal(const Format& format) { return std::ldexp(1.0, format.min_exponent); }

namespace {

// 2^e for |e| <= 1000 from the bits, else std::ldexp(1, e) (a library call:
// the rounding below runs for every value of some passes).
double power_of_two(int e) {
  if (e >= -1000 && e <= 1000) return std::bit_cast<double>(static_cast<std::uint64_t>(e + 1023) << 52);
  return std::ldexp(1.0, e);
}

// floor(log2 |x|) for a finite nonzero x: the exponent bits of a normal double.
int binade_of(double x) {
  const int field = static_cast<int>((std::bit_cast<std::uint64_t>(x) >> 52) & 0x7ff);
  return field != 0 ? field - 1023 : std::ilogb(x);
}

}  // namespace

double round_to_format(double x, const Format& format) {
  if (!std::isfinite(x) || x == 0.0) return x;
  // The spacing of the format around x: 2^(e - (p - 1)) in x's binade,
  // never below the smallest subnormal (gradual underflow).
  const int exponent = std::max(binade_of(x), format.min_exponent);
  const int quantum_exponent = exponent - mantissa_bits(format);
  // |x| in units of that spacing. Exact: a power-of-two scaling of a double
  // that lands in [0, 2^p), far inside the normal range or scaled up from it
  // (a product by 2^-q is the same exact value std::ldexp gives).
  const double scaled = quantum_exponent >= -1000 ? std::fabs(x) * power_of_two(-quantum_exponent)
                                                  : std::ldexp(std::fabs(x), -quantum_exponent);
  const double truncated = std::floor(scaled);
  // Exact: scaled < 2^53, so its own spacing divides 1 and the fraction fits.
  const double fraction = scaled - truncated;
  // truncated - 2 floor(truncated / 2): every step exact for an integer below 2^53.
  const bool truncated_is_odd = truncated - 2.0 * std::floor(truncated * 0.5) != 0.0;
  const double rounded = (fraction > 0.5 || (fraction == 0.5 && truncated_is_odd)) ? truncated + 1.0 : truncated;
  // rounded <= 2^p, so this is exact; a carry to 2^p is the next binade's 1.
  const double magnitude = quantum_exponent >= -1000 && quantum_exponent <= 1000
                               ? rounded * power_of_two(quantum_exponent)
                               : std::ldexp(rounded, quantum_exponent);
  if (magnitude > largest_finite(format)) return std::copysign(std::numeric_limits<double>::infinity(), x);
  return std::copysign(magnitude, x);
}

bool is_representable(double x, const Format& format) {
  return std::isnan(x) || round_to_format(x, format) == x;
}

std::uint64_t to_bits(double x, const Format& format) {
  if (!is_representable(x, format)) {
    throw std::invalid_argument("to_bits: " + hex_float(x) + " is not a " + std::string(format.name) +
                                " value; round it with round_to_format first");
  }
  const int fraction_bits = mantissa_bits(format);
  const std::uint64_t exponent_all_ones = low_mask(exponent_bits(format));
  const std::uint64_t sign = std::signbit(x) ? std::uint64_t{1} << (format.storage_bits - 1) : 0;
  if (std::isnan(x)) {
    // Keep the top payload bits (the quiet bit is the top one in every
    // format); a payload that lived only in the dropped bits would read as
    // infinity, so it becomes the quiet bit instead.
    std::uint64_t payload = (std::bit_cast<std::uint64_t>(x) & double_fraction_mask) >> (52 - fraction_bits);
    if (payload == 0) payload = std::uint64_t{1} << (fraction_bits - 1);
    return sign | (exponent_all_ones << fraction_bits) | payload;
  }
  if (std::isinf(x)) return sign | (exponent_all_ones << fraction_bits);
  if (x == 0.0) return sign;
  const int exponent = std::ilogb(x);
  if (exponent < format.min_exponent) {
    // Subnormal: the stored fraction counts smallest subnormals (an exact integer).
    return sign | static_cast<std::uint64_t>(std::fabs(x) / smallest_subnormal(format));
  }
  // Normal: |x| * 2^(p - 1 - e) is the significand with its implicit bit, an integer in [2^(p-1), 2^p).
  const auto significand = static_cast<std::uint64_t>(std::ldexp(std::fabs(x), fraction_bits - exponent));
  const auto biased_exponent = static_cast<std::uint64_t>(exponent + exponent_bias(format));
  return sign | (biased_exponent << fraction_bits) | (significand - (std::uint64_t{1} << fraction_bits));
}

double from_bits(std::uint64_t bits, const Format& format) {
  if (format.storage_bits < 64 && (bits >> format.storage_bits) != 0) {
    char text[32];
    std::snprintf(text, sizeof text, "0x%llx", static_cast<unsigned long long>(bits));
    throw std::invalid_argument("from_bits: " + std::string(text) + " has bits set beyond the " +
                                std::to_string(format.storage_bits) + " bits of " + std::string(format.name));
  }
  const int fraction_bits = mantissa_bits(format);
  const std::uint64_t exponent_all_ones = low_mask(exponent_bits(format));
  const bool negative = ((bits >> (format.storage_bits - 1)) & 1) != 0;
  const std::uint64_t exponent_field = (bits >> fraction_bits) & exponent_all_ones;
  const std::uint64_t fraction = bits & low_mask(fraction_bits);

  if (exponent_field == exponent_all_ones && fraction != 0) {
    // NaN: the payload goes to the top of the double's fraction, quiet bit onto quiet bit.
    const std::uint64_t sign = negative ? std::uint64_t{1} << 63 : 0;
    return std::bit_cast<double>(sign | (std::uint64_t{0x7ff} << 52) | (fraction << (52 - fraction_bits)));
  }
  double magnitude = 0.0;
  if (exponent_field == exponent_all_ones) {
    magnitude = std::numeric_limits<double>::infinity();
  } else if (exponent_field == 0) {
    magnitude = std::ldexp(static_cast<double>(fraction), format.min_exponent - fraction_bits);
  } else {
    // fraction + implicit bit < 2^53: exact in double, and so is the scaling.
    const double significand = static_cast<double>(fraction | (std::uint64_t{1} << fraction_bits));
    magnitude = std::ldexp(significand, static_cast<int>(exponent_field) - exponent_bias(format) - fraction_bits);
  }
  return negative ? -magnitude : magnitude;
}

std::string hex_bits(double x, const Format& format) {
  char text[32];
  std::snprintf(text, sizeof text, "0x%0*llx", format.storage_bits / 4,
                static_cast<unsigned long long>(to_bits(x, format)));
  return text;
}

std::string hex_float(double x) {
  char text[64];
  std::snprintf(text, sizeof text, "%a", x);
  return text;
}

}  // namespace pecheck
