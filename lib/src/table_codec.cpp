#include "table_codec.hpp"

#include <cstdio>
#include <limits>

#include "float_bits.hpp"
#include "pecheck/convention.hpp"
#include "pecheck/table_file.hpp"

namespace pecheck::detail {

namespace {

// make_table's limit, checked here first so the error names the file.
constexpr std::uint64_t max_entries = std::uint64_t{1} << 31;

}  // namespace

std::uint64_t checked_entries(std::uint64_t rows, std::uint64_t cols, int itemsize, std::uint64_t data_bytes,
                              std::string_view name, std::string_view field, const std::string& what) {
  const auto size = static_cast<std::uint64_t>(itemsize);
  const std::uint64_t limit = std::numeric_limits<std::uint64_t>::max();
  if (cols != 0 && rows > limit / cols / size) {
    throw TableFileError(name, field, what + " needs more than 2^64 bytes of data, the file holds " +
                                          std::to_string(data_bytes),
                         "a shape that matches the data");
  }
  const std::uint64_t entries = rows * cols;
  if (entries * size != data_bytes) {
    throw TableFileError(name, field, what + " needs " + std::to_string(entries * size) +
                                          " bytes of data, the file holds " + std::to_string(data_bytes),
                         "a shape that matches the data");
  }
  return entries;
}

Table make_checked_table(std::uint64_t rows, std::uint64_t cols, FormatId format, std::string_view name) {
  if (cols != 0 && rows > max_entries / cols) {
    throw TableFileError(name, "shape", std::to_string(rows) + " x " + std::to_string(cols) + " is too many values",
                         "at most 2^31 values");
  }
  try {
    return make_table(static_cast<std::int64_t>(rows), static_cast<std::int64_t>(cols), format);
  } catch (const ConventionError& error) {
    throw TableFileError(name, "shape", error.what(), "a table that fits in memory");
  }
}

void check_table_shape(const Table& table, std::string_view name) {
  const std::string shape = std::to_string(table.rows) + " x " + std::to_string(table.cols);
  if (table.rows < 0 || table.cols < 0) throw TableFileError(name, "table", "shape " + shape + " is negative", "rows, cols >= 0");
  const auto rows = static_cast<std::uint64_t>(table.rows);
  const auto cols = static_cast<std::uint64_t>(table.cols);
  if ((cols != 0 && rows > max_entries / cols) || rows * cols != table.values.size()) {
    throw TableFileError(name, "table",
                         "shape " + shape + " does not match its " + std::to_string(table.values.size()) + " values",
                         "rows * cols values");
  }
}

std::uint64_t table_value_bits(const Table& table, std::size_t k, FormatId stored, std::string_view name) {
  const double value = table.values[k];
  const auto own = encode_float_bits(value, table.format);
  if (!own) {
    const auto cols = static_cast<std::size_t>(table.cols);
    char number[32];
    std::snprintf(number, sizeof number, "%.17g", value);
    const std::string format_name(detail::format_name(table.format));
    throw TableFileError(name, "value at row " + std::to_string(k / cols) + ", column " + std::to_string(k % cols),
                         std::string(number) + " is not a " + format_name + " value",
                         "every value exactly representable in " + format_name);
  }
  if (stored == table.format) return *own;
  // A wider format holds every value of the narrower one exactly.
  return *encode_float_bits(value, stored);
}

}  // namespace pecheck::detail
