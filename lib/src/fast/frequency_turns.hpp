// The frequency of each column in turns per position, f_i = w_i / (2 pi), to
// about 100 bits, and its split into three doubles that make p f_i exact
// enough for every integer position |p| < 2^24.
#pragma once

#include <cstdint>

#include "pecheck/convention.hpp"
#include "pecheck/double_double.hpp"

namespace pecheck {

// f = w / (2 pi) for one frequency term, as a double-double with relative
// error below 2^-100 (measured against a 113-bit evaluation in the tests).
// Throws ConventionError when the rule's numbers give no finite, positive
// frequency (a base or timescale that is not positive, or a ratio past e^700).
DoubleDouble frequency_in_turns(const Convention& convention, const FrequencyTerm& term);

// f = f1 + f2 + f3 (to 2^-109 |f|), where f1 and f2 have at most 29
// significant bits and |f2| < 2^-28 |f|, |f3| < 2^-56 |f|. For an integer
// |p| < 2^24, p f1 and p f2 are then exact doubles (24 + 29 <= 53 bits).
struct TurnsSplit {
  double f1 = 0.0;
  double f2 = 0.0;
  double f3 = 0.0;
};
TurnsSplit split_for_positions(DoubleDouble f);

}  // namespace pecheck
