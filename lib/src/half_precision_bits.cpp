#include "half_precision_bits.hpp"

#include <cmath>

namespace pecheck::detail {

namespace {

// A 16-bit binary format: 1 sign bit, exponent_bits, precision - 1 stored bits.
struct SixteenBitFormat {
  int precision;     // significand bits with the implicit one
  int min_exponent;  // exponent of the smallest normal number
  int max_exponent;  // exponent of the largest finite number
};

constexpr SixteenBitFormat float16{11, -14, 15};
constexpr SixteenBitFormat bfloat16{8, -126, 127};

constexpr int stored_bits(const SixteenBitFormat& f) { return f.precision - 1; }
constexpr int bias(const SixteenBitFormat& f) { return f.max_exponent; }
constexpr std::uint16_t exponent_mask(const SixteenBitFormat& f) {
  return static_cast<std::uint16_t>(0x7fff & ~((1u << stored_bits(f)) - 1u));
}

std::uint16_t round_to_bits(double x, const SixteenBitFormat& f) {
  const std::uint16_t sign = std::signbit(x) ? 0x8000 : 0;
  if (std::isnan(x)) return static_cast<std::uint16_t>(sign | exponent_mask(f) | (1u << (stored_bits(f) - 1)));
  const double a = std::fabs(x);
  // The largest finite value plus half its ulp rounds (to even) to infinity.
  const double overflow = std::ldexp(2.0 - std::ldexp(1.0, -f.precision), f.max_exponent);
  if (a >= overflow) return static_cast<std::uint16_t>(sign | exponent_mask(f));
  if (a < std::ldexp(1.0, f.min_exponent)) {
    // Subnormal (or the smallest normal after rounding up): the significand
    // counts units of 2^(min_exponent - stored_bits). Scaling by a power of
    // two is exact and nearbyint rounds ties to even.
    const double units = std::nearbyint(std::ldexp(a, stored_bits(f) - f.min_exponent));
    return static_cast<std::uint16_t>(sign | static_cast<unsigned>(units));
  }
  int exponent = std::ilogb(a);
  double significand = std::nearbyint(std::ldexp(a, stored_bits(f) - exponent));  // in [2^s, 2^(s+1)]
  if (significand == std::ldexp(1.0, f.precision)) {
    significand /= 2.0;
    ++exponent;
  }
  const unsigned biased = static_cast<unsigned>(exponent + bias(f));
  const unsigned fraction = static_cast<unsigned>(significand) - (1u << stored_bits(f));
  return static_cast<std::uint16_t>(sign | (biased << stored_bits(f)) | fraction);
}

double bits_to_value(std::uint16_t bits, const SixteenBitFormat& f) {
  const bool negative = (bits & 0x8000) != 0;
  const unsigned biased = (bits & exponent_mask(f)) >> stored_bits(f);
  const unsigned fraction = bits & ((1u << stored_bits(f)) - 1u);
  double magnitude = 0.0;
  if (biased == static_cast<unsigned>(exponent_mask(f) >> stored_bits(f))) {
    magnitude = fraction == 0 ? HUGE_VAL : std::nan("");
  } else if (biased == 0) {
    magnitude = std::ldexp(static_cast<double>(fraction), f.min_exponent - stored_bits(f));
  } else {
    const double significand = static_cast<double>(fraction | (1u << stored_bits(f)));
    magnitude = std::ldexp(significand, static_cast<int>(biased) - bias(f) - stored_bits(f));
  }
  return negative ? -magnitude : magnitude;
}

}  // namespace

std::uint16_t float16_bits_from_double(double x) { return round_to_bits(x, float16); }
std::uint16_t bfloat16_bits_from_double(double x) { return round_to_bits(x, bfloat16); }
double float16_bits_to_value(std::uint16_t bits) { return bits_to_value(bits, float16); }
double bfloat16_bits_to_value(std::uint16_t bits) { return bits_to_value(bits, bfloat16); }

}  // namespace pecheck::detail
