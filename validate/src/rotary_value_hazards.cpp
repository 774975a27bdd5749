#include "rotary_value_hazards.hpp"

#include <algorithm>
#include <bit>
#include <cmath>
#include <span>
#include <string>

#include "detection_kernels.hpp"
#include "pecheck/half_bits.hpp"

namespace pecheck::validate {

namespace {

constexpr std::uint32_t infinity_bits = 0x7f800000U;

ValueExtent float_extent(std::span<const float> values) {
  // Blocks through the selected variant's kernel (detection_kernels.hpp).
  const FloatBlockExtent block_extent = detection_kernels().float_block_extent;
  constexpr std::size_t block = std::size_t{1} << 20;  // its count fits 32 bits
  std::int64_t outside = 0;
  std::uint32_t largest = 0;
  for (std::size_t first = 0; first < values.size(); first += block) {
    std::uint32_t block_outside = 0, block_largest = 0;
    block_extent(values.data() + first, std::min(block, values.size() - first), block_outside, block_largest);
    outside += block_outside;
    largest = std::max(largest, block_largest);
  }
  const bool any_finite = outside < static_cast<std::int64_t>(values.size());
  return {outside, any_finite ? static_cast<double>(std::bit_cast<float>(largest)) : -1.0};
}

// A 16-bit format's values by their bits, as float_extent reads float32's:
// its magnitudes order as their values, and the exponent field all ones
// (`infinity` and above) is a non-finite value. Decoded one at a time, two
// 32 MiB bfloat16 tables took 27 ms.
ValueExtent half_extent(std::span<const std::uint16_t> values, std::uint16_t infinity, double (*decode)(std::uint16_t)) {
  constexpr std::size_t block = std::size_t{1} << 20;  // its count fits 32 bits
  std::int64_t outside = 0;
  std::uint32_t largest = 0;
  for (std::size_t first = 0; first < values.size(); first += block) {
    const std::span<const std::uint16_t> part = values.subspan(first, std::min(block, values.size() - first));
    std::uint32_t count = 0, most = 0;
    for (const std::uint16_t v : part) {
      const std::uint32_t magnitude = v & 0x7fffU;
      const std::uint32_t non_finite = magnitude >= infinity;  // 0 or 1
      count += non_finite;
      most = std::max(most, magnitude & (non_finite - 1U));
    }
    outside += count;
    largest = std::max(largest, most);
  }
  const bool any_finite = outside < static_cast<std::int64_t>(values.size());
  return {outside, any_finite ? decode(static_cast<std::uint16_t>(largest)) : -1.0};
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

ValueExtent value_extent(const Table& table) { return value_extent(table, 0, table.rows); }

ValueExtent value_extent(const Table& table, std::int64_t first_row, std::int64_t end_row) {
  const auto first = static_cast<std::size_t>(first_row * table.cols);
  const auto count = static_cast<std::size_t>((end_row - first_row) * table.cols);
  if (table.format == FormatId::float32) return float_extent(table.storage<float>().subspan(first, count));
  if (table.format == FormatId::bfloat16) {
    return half_extent(table.storage<std::uint16_t>().subspan(first, count), 0x7f80U, bfloat16_bits_to_double);
  }
  if (table.format == FormatId::float16) {
    return half_extent(table.storage<std::uint16_t>().subspan(first, count), 0x7c00U, float16_bits_to_double);
  }
  ValueExtent extent;
  for (const double v : table.storage<double>().subspan(first, count)) {  // float64
    extent.non_finite += !std::isfinite(v);
    if (std::isfinite(v)) extent.largest = std::max(extent.largest, std::fabs(v));
  }
  return extent;
}

ValueExtent combined(const ValueExtent& a, const ValueExtent& b) {
  return {a.non_finite + b.non_finite, std::max(a.largest, b.largest)};
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
