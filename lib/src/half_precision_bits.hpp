// Rounding a double once to float16 or bfloat16 storage bits, for the fast
// path's half-precision outputs.
//
// format.hpp declares the same conversions (round_to_float16_bits and
// friends) for the formats module; until that lands, the fast path keeps its
// own in namespace detail, and should switch to those once they exist.
#pragma once

#include <cstdint>

namespace pecheck::detail {

// Round to nearest, ties to even, with gradual underflow, overflow to
// infinity, signed zeros kept and NaN kept as a quiet NaN.
std::uint16_t float16_bits_from_double(double x);
std::uint16_t bfloat16_bits_from_double(double x);

// The exact value of the storage bits.
double float16_bits_to_value(std::uint16_t bits);
double bfloat16_bits_to_value(std::uint16_t bits);

}  // namespace pecheck::detail
