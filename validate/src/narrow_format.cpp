#include "narrow_format.hpp"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <span>

namespace pecheck::validate {

namespace {

constexpr std::int64_t least_telling_values = 8;

// A float32 value (its bits, sign cleared) the narrow format holds exactly,
// as first_entry_outside decides it (a NaN passes: it is no finite value).
// bfloat16 is float32's top half: the value holds when its low 16 bits are
// zero. float16 holds +-0, infinity, the normal range 2^-14..65504 with 10
// fraction bits (the low 13 of float32's 23 zero) and the subnormal
// multiples of 2^-24 below it: a float32 of exponent field E (weight
// 2^(E-127)) spends its lowest 126 - E fraction bits below 2^-24.
// validate_narrow_format_test compares both with first_entry_outside.
std::uint32_t bfloat16_misses(std::uint32_t magnitude) {
  const bool nan = magnitude > 0x7f800000U;
  return nan ? 0U : magnitude & 0xffffU;
}

bool float16_holds(std::uint32_t magnitude) {
  if (magnitude == 0 || magnitude >= 0x7f800000U) return true;  // +-0, infinity, NaN
  if (magnitude > 0x477fe000U) return false;                       // past 65504
  if (magnitude >= 0x38800000U) return (magnitude & 0x1fffU) == 0;  // 2^-14 and up: normal
  if (magnitude < 0x33800000U) return false;                       // below 2^-24
  const auto low_bits = static_cast<int>(126 - (magnitude >> 23));  // 14 (E = 112) to 23 (E = 103)
  return (magnitude & ((std::uint32_t{1} << low_bits) - 1U)) == 0;
}

// The float32 storage by its bits, a block at a time with no branch inside
// one (decoded and rounded one value at a time, a 64 MiB bfloat16-valued
// cache took 115 ms), stopping at the first block with a value the format
// does not hold (a float32 cache: in its second row).
bool float32_holds_every_value(std::span<const float> values, FormatId narrow) {
  constexpr std::size_t block = 4096;
  for (std::size_t first = 0; first < values.size(); first += block) {
    const std::span<const float> part = values.subspan(first, std::min(block, values.size() - first));
    std::uint32_t misses = 0;
    if (narrow == FormatId::bfloat16) {
      for (const float v : part) misses |= bfloat16_misses(std::bit_cast<std::uint32_t>(v) & 0x7fffffffU);
    } else {
      for (const float v : part) misses |= float16_holds(std::bit_cast<std::uint32_t>(v) & 0x7fffffffU) ? 0U : 1U;
    }
    if (misses != 0) return false;
  }
  return true;
}

bool holds_every_value(const Table& table, const Format& format) {
  if (table.format == FormatId::float32 && format.id != FormatId::float32) {
    return float32_holds_every_value(table.storage<float>(), format.id);
  }
  return !first_entry_outside(table, format.id).has_value();
}

// Stops counting once there are enough: a large table is not read twice for nothing.
std::int64_t telling_values(const Table& table) {
  std::int64_t count = 0;
  for (std::int64_t k = 0; k < table.size() && count < least_telling_values; ++k) {
    const double v = table.flat(k);
    count += std::isfinite(v) && v != 0.0 && std::fabs(v) != 1.0;
  }
  return count;
}

}  // namespace

FormatChoice narrowest_format(const Table& table) {
  const Format& stored = format_of(table.format);
  if (telling_values(table) >= least_telling_values) {
    for (FormatId id : {FormatId::bfloat16, FormatId::float16, FormatId::float32}) {
      const Format& narrow = format_of(id);
      if (narrow.storage_bits >= stored.storage_bits) continue;
      if (holds_every_value(table, narrow)) {
        return {id, "every value is a " + std::string(narrow.name) + " value stored as " + std::string(stored.name) +
                        ": compared as " + std::string(narrow.name) + " (--dtype " + std::string(stored.name) +
                        " compares as stored)"};
      }
    }
  }
  return {table.format, ""};
}

std::optional<std::string> not_representable(const Table& table, FormatId format) {
  const auto outside = first_entry_outside(table, format);
  if (!outside) return std::nullopt;
  return "row " + std::to_string(outside->row) + ", column " + std::to_string(outside->col) + " holds " +
         hex_float(table.at(outside->row, outside->col)) + ", which is not a " +
         std::string(format_of(format).name) + " value";
}

}  // namespace pecheck::validate
