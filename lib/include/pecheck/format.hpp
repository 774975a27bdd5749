// The four number formats pecheck checks, as data, and exact conversions
// between them and double.
//
// Every value of every format is exactly representable in double, so a table
// of any format is held as doubles plus its Format; the bit patterns are
// produced on demand for hex output and file writing.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace pecheck {

enum class FormatId { float64, float32, float16, bfloat16 };

// An IEEE-754-style binary format: 1 sign bit, storage_bits - precision
// exponent bits, precision - 1 stored significand bits, gradual underflow.
struct Format {
  FormatId id;
  std::string_view name;
  int precision;     // significand bits including the implicit one
  int min_exponent;  // exponent of the smallest normal number
  int max_exponent;  // exponent of the largest finite number
  int storage_bits;
};

const Format& format_of(FormatId id);
std::optional<FormatId> parse_format(std::string_view name);  // "float64", "float32", "float16", "bfloat16"

// x rounded to the format, round-to-nearest-even, with gradual underflow and
// overflow to infinity; NaN stays NaN, signed zeros keep their sign.
// This rounds once from double: correct for every x that is itself the
// exact value, which is why the reference never calls it on an inexact one.
double round_to_format(double x, const Format& format);
bool is_representable(double x, const Format& format);

double largest_finite(const Format& format);
double smallest_subnormal(const Format& format);
double smallest_normal(const Format& format);

// The bit pattern of x, which must be representable (throws std::invalid_argument otherwise).
// A NaN keeps its sign and the top bits of its payload, so every pattern round-trips.
std::uint64_t to_bits(double x, const Format& format);
double from_bits(std::uint64_t bits, const Format& format);

// "0x3f800000" style: the bit pattern, zero-padded to the storage width.
std::string hex_bits(double x, const Format& format);
// C99 hexadecimal floating-point text of the value ("0x1.8p-3").
std::string hex_float(double x);

// Hot-path conversions for the fast implementation: round-to-nearest-even from
// double with subnormals and overflow, returning the storage bits (a NaN comes
// out quiet). Inline, defined in half_bits.hpp, so a per-element loop has no call.
inline std::uint16_t round_to_float16_bits(double x);
inline std::uint16_t round_to_bfloat16_bits(double x);
inline double float16_bits_to_double(std::uint16_t bits);
inline double bfloat16_bits_to_double(std::uint16_t bits);

}  // namespace pecheck

#include "pecheck/half_bits.hpp"
