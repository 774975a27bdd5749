#include "narrow_format.hpp"

#include <cmath>

namespace pecheck::validate {

namespace {

constexpr std::int64_t least_telling_values = 8;

bool holds_every_value(const Table& table, const Format& format) {
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
