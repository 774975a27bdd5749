#include "narrow_format.hpp"

#include <cmath>

namespace pecheck::validate {

namespace {

constexpr std::int64_t least_telling_values = 8;

bool holds_every_value(const Table& table, const Format& format) {
  for (double v : table.values) {
    if (std::isfinite(v) && round_to_format(v, format) != v) return false;
  }
  return true;
}

std::int64_t telling_values(const Table& table) {
  std::int64_t count = 0;
  for (double v : table.values) count += std::isfinite(v) && v != 0.0 && std::fabs(v) != 1.0;
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
  const Format& target = format_of(format);
  for (std::int64_t k = 0; k < static_cast<std::int64_t>(table.values.size()); ++k) {
    const double v = table.values[static_cast<std::size_t>(k)];
    if (std::isfinite(v) && round_to_format(v, target) != v) {
      return "row " + std::to_string(k / table.cols) + ", column " + std::to_string(k % table.cols) + " holds " +
             hex_float(v) + ", which is not a " + std::string(target.name) + " value";
    }
  }
  return std::nullopt;
}

}  // namespace pecheck::validate
