// A rotary cache's value hazards: NaN or infinity, and values past the
// attention factor by more than rounding. In two parts, so that the pass over
// every value can run before the factor is known (beside detection, on a core
// that would otherwise wait): each table's extent, then the hazards, which
// count the values past the factor only in a table whose largest value is.
#pragma once

#include <cstdint>
#include <vector>

#include "pecheck/table.hpp"
#include "pecheck/validate/validation.hpp"

namespace pecheck::validate {

struct ValueExtent {
  std::int64_t non_finite = 0;
  double largest = -1.0;  // the largest finite |value|, -1 when none is finite
};
ValueExtent value_extent(const Table& table);
// The extent of rows [first_row, end_row) alone, and of two parts together
// (a count and a largest value: the parts combine to the whole's in any order).
ValueExtent value_extent(const Table& table, std::int64_t first_row, std::int64_t end_row);
ValueExtent combined(const ValueExtent& a, const ValueExtent& b);

// The hazards of cos and sin, given their extents, for a cache compared in
// `format` whose attention factor is `factor`.
std::vector<Hazard> value_hazards(const Table& cos, const Table& sin, const ValueExtent& cos_extent,
                                  const ValueExtent& sin_extent, FormatId format, double factor);

}  // namespace pecheck::validate
