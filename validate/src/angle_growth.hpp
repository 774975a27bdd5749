// CONVENTIONS.md fault 2 seen through the output format's own rounding: a
// float32 computation (angles p * w in float32) cast to float16 or bfloat16
// has angle errors far below the narrow format's ULP, so each row's largest
// error is that rounding, the same at every position, and the fit of
// faults.hpp sees no growth. Entry by entry, though, the table differs from
// the exact value rounded to its format wherever the angle error pushed the
// value across a rounding boundary, which happens with probability
// |error| / ULP and costs one ULP: over many entries the mean of
// |table - round(exact)| is the mean of the error before rounding, whatever
// the format. That mean, per unit of p w |d value / d angle|, is the relative
// error of the angles.
#pragma once

#include <optional>

#include "faults.hpp"
#include "pecheck/convention.hpp"
#include "pecheck/format.hpp"
#include "pecheck/table.hpp"

namespace pecheck::validate {

// Over the rows of `scan` (at the positions it holds, after fault 1 moved
// them), the mean |table - exact rounded to `format`| per octave of
// positions: reported when it grows in proportion to the position, with the
// angles' fitted significant bits. Only for formats narrower than float32.
std::optional<Hazard> angle_precision_through_rounding(const Table& table, const Convention& convention,
                                                       const RowErrors& scan, FormatId format);

}  // namespace pecheck::validate
