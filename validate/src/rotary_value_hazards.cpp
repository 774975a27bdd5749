#include "rotary_value_hazards.hpp"

#include <algorithm>
#include <bit>
#include <cmath>
#include <span>
#include <string>

namespace pecheck::validate {

namespace {

constexpr std::uint32_t infinity_bits = 0x7f800000U;

// float32 values by their bits (integer lanes, which vectorise where a loop
// of isfinite and fabs did not): a value is non-finite when its exponent
// field is all ones, and non-negative floats order as their bits.
ValueExtent float_extent(std::span<const float> values) {
  std::int64_t outside = 0;
  std::uint32_t largest = 0;
  bool any_finite = false;
  for (const float v : values) {
    const std::uint32_t magnitude = std::bit_cast<std::uint32_t>(v) & 0x7fffffffU;
    const bool finite = magnitude < infinity_bits;
    outside += finite ? 0 : 1;
    any_finite |= finite;
    largest = std::max(largest, finite ? magnitude : 0U);
  }
  return {outside, any_finite ? static_cast<double>(std::bit_cast<float>(largest)) : -1.0};
}

// Finite values of `table` past `limit` in magnitude (a NaN limit passes none).
std::int64_t count_beyond(const Table& table, double limit) {
  std::int64_t beyond = 0;
  if (table.format == FormatId::float32 && limit >= 0.0) {
    // For a float x, x > limit exactly when x > L, the largest float at most
    // `limit` (L <= limit, and the float after L exceeds limit): bits again.
    float largest = static_cast<float>(limit);
    if (static_cast<double>(largest) > limit) largest = std::nextafter(largest, 0.0F);
    const std::uint32_t bound = std::bit_cast<std::uint32_t>(largest);
    for (const float v : table.storage<float>()) {
      const std::uint32_t magnitude = std::bit_cast<std::uint32_t>(v) & 0x7fffffffU;
      beyond += (magnitude < infinity_bits) & (magnitude > bound) ? 1 : 0;
    }
    return beyond;
  }
  for (std::int64_t k = 0; k < table.size(); ++k) {
    const double v = table.flat(k);
    beyond += std::isfinite(v) && std::fabs(v) > limit;
  }
  return beyond;
}

}  // namespace

ValueExtent value_extent(const Table& table) {
  if (table.format == FormatId::float32) return float_extent(table.storage<float>());
  ValueExtent extent;
  const auto add = [&](double v) {
    extent.non_finite += !std::isfinite(v);
    if (std::isfinite(v)) extent.largest = std::max(extent.largest, std::fabs(v));
  };
  if (table.format == FormatId::float64) {
    for (const double v : table.storage<double>()) add(v);
  } else {
    for (std::int64_t k = 0; k < table.size(); ++k) add(table.flat(k));  // a 16-bit format, decoded
  }
  return extent;
}

std::vector<Hazard> value_hazards(const Table& cos, const Table& sin, const ValueExtent& cos_extent,
                                  const ValueExtent& sin_extent, FormatId format, double factor) {
  const double limit = factor * (1.0 + 8.0 * std::ldexp(1.0, -format_of(format).precision));
  // A table counts only when its largest finite value is past the limit
  // (none is otherwise; a NaN limit passes none, as |v| > NaN is false).
  std::int64_t beyond = 0;
  if (cos_extent.largest > limit) beyond += count_beyond(cos, limit);
  if (sin_extent.largest > limit) beyond += count_beyond(sin, limit);
  const std::int64_t non_finite = cos_extent.non_finite + sin_extent.non_finite;
  std::vector<Hazard> found;
  if (non_finite > 0) {
    found.push_back({HazardKind::non_finite, std::to_string(non_finite) + " entries are NaN or infinite."});
  }
  if (beyond > 0) {
    found.push_back({HazardKind::out_of_range, std::to_string(beyond) + " entries exceed the attention factor " +
                                                   std::to_string(factor) + " in magnitude."});
  }
  return found;
}

}  // namespace pecheck::validate
