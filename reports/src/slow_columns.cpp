#include <cmath>
#include <numbers>

#include "parallel.hpp"
#include "pecheck/reference/reference.hpp"
#include "sweeps.hpp"

namespace pecheck::reports::detail {

// A column is slow over positions [0, P) when every correctly rounded value
// in the range is the same. For a column of frequency w with (P-1) w <= pi/2,
// sin and cos are monotone on [0, (P-1) w] and rounding preserves order, so
// the column is constant exactly when its first and last values round alike.
// Past pi/2 a sin column reaches 1 and a cos column falls to cos(pi/2) = 0
// from 1: no format rounds those together. Zero columns (odd widths) hold no
// position at all and are not counted.
SlowColumnCurve count_slow_columns(const Convention& given, std::int64_t dim, int threads) {
  // The encoding as a function of position: row r holds position r, no zero rows.
  Convention convention = given;
  convention.position_offset = 0;
  convention.zero_rows.clear();
  SlowColumnCurve curve;
  curve.convention = convention.name;
  curve.dim = dim;
  curve.formats = {FormatId::float32, FormatId::float16, FormatId::bfloat16};
  const std::vector<ColumnSpec> columns = column_layout(convention, dim);
  constexpr int largest_power = 24;  // P = 2^24: every position float32 holds exactly
  for (int k = 1; k <= largest_power; ++k) curve.range_ends.push_back(std::ldexp(1.0, k));

  curve.counts.assign(curve.formats.size(), std::vector<double>(curve.range_ends.size(), 0.0));
  parallel_for(curve.formats.size() * curve.range_ends.size(), threads, [&](std::size_t item) {
    const std::size_t f = item / curve.range_ends.size();
    const std::size_t k = item % curve.range_ends.size();
    const Format& format = format_of(curve.formats[f]);
    const std::int64_t last_position = static_cast<std::int64_t>(curve.range_ends[k]) - 1;
    int slow = 0;
    for (std::int64_t c = 0; c < dim; ++c) {
      const ColumnSpec& column = columns[static_cast<std::size_t>(c)];
      if (column.kind == ColumnKind::zero) continue;
      const double w = frequency_value(convention, dim, column.frequency_index);
      if (static_cast<double>(last_position) * w > std::numbers::pi / 2) continue;
      const double first = reference::correctly_rounded(convention, dim, 0, c, format);
      const double last = reference::correctly_rounded(convention, dim, last_position, c, format);
      slow += first == last;
    }
    curve.counts[f][k] = slow;
  });
  return curve;
}

}  // namespace pecheck::reports::detail
