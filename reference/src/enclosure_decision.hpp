// What the first step's enclosure [v - e, v + e] of an exact value decides:
// its rounding to a format, and whether v may stand for the exact value.
#pragma once

#include <optional>

#include "double_word.hpp"
#include "pecheck/format.hpp"

namespace pecheck::reference {

// The format value every real in [v - error, v + error] rounds to (nearest,
// ties to even, gradual underflow), or nothing when the enclosure reaches a
// rounding boundary (a midpoint between two format values), contains zero or
// is not finite: then only a more precise evaluation can decide.
std::optional<double> decided_rounding(DoubleWord v, double error, const Format& format);

// The relative accuracy the reference promises for its exact values.
inline constexpr double exact_relative_accuracy = 0x1p-100;

// Whether v is within exact_relative_accuracy |x| of every x in the enclosure.
bool good_as_exact(DoubleWord v, double error);

}  // namespace pecheck::reference
