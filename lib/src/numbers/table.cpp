#include "pecheck/table.hpp"

#include <bit>
#include <cstdint>
#include <cstring>
#include <new>
#include <stdexcept>
#include <string>

#include "pecheck/table_errors.hpp"
#include "pecheck/memory_limit.hpp"

namespace pecheck {

namespace detail {

void throw_storage_type_mismatch(FormatId format, std::size_t element_size) {
  throw std::logic_error("a " + std::string(format_of(format).name) + " table read as " +
                         std::to_string(element_size) + "-byte elements (its storage holds " +
                         std::to_string(storage_bytes(format)) + "-byte elements)");
}

void throw_borrowed_table_write() {
  throw std::logic_error("a write to a borrowed table (borrowed_table: it reads a buffer it does not own)");
}

}  // namespace detail

namespace {

std::size_t checked_bytes(std::int64_t rows, std::int64_t cols, FormatId format) {
  if (rows < 0 || cols < 0) throw TableShapeError(rows, cols, format, "is negative");
  const auto size = static_cast<std::uint64_t>(storage_bytes(format));
  const auto r = static_cast<std::uint64_t>(rows);
  const auto c = static_cast<std::uint64_t>(cols);
  if (c != 0 && r > (std::uint64_t{1} << 62) / c / size) {
    throw TableShapeError(rows, cols, format, "needs more than 2^62 bytes");
  }
  const std::uint64_t bytes = r * c * size;
  check_memory_available(bytes, "a " + std::to_string(rows) + " x " + std::to_string(cols) + " " +
                                    std::string(format_of(format).name) + " table");
  return static_cast<std::size_t>(bytes);
}

}  // namespace

void Table::allocate(std::size_t bytes) {
  try {
    // Large tables in huge pages: see page_buffer.hpp.
    owned_ = allocate_page_buffer(bytes);
  } catch (const std::bad_alloc&) {
    throw TableShapeError(rows, cols, format, "could not be allocated (" + std::to_string(bytes) + " bytes)");
  }
  data_ = owned_.get();
}

Table::Table(const Table& other) : rows(other.rows), cols(other.cols), format(other.format) {
  if (other.data_ != nullptr) {
    allocate(other.bytes().size());
    std::memcpy(owned_.get(), other.data_, other.bytes().size());
  }
}

Table& Table::operator=(const Table& other) {
  if (this != &other) {
    Table copy(other);
    *this = std::move(copy);
  }
  return *this;
}

void Table::set(std::int64_t row, std::int64_t col, double x) {
  std::byte* p = mutable_data() + (row * cols + col) * storage_bytes(format);
  switch (format) {
    case FormatId::float64:
      std::memcpy(p, &x, sizeof x);
      return;
    case FormatId::float32: {
      // The conversion rounds to nearest even (the default rounding mode, which
      // pecheck never changes), with subnormals and overflow to infinity.
      const auto f = static_cast<float>(x);
      std::memcpy(p, &f, sizeof f);
      return;
    }
    case FormatId::float16: {
      const std::uint16_t bits = round_to_float16_bits(x);
      std::memcpy(p, &bits, sizeof bits);
      return;
    }
    case FormatId::bfloat16: {
      const std::uint16_t bits = round_to_bfloat16_bits(x);
      std::memcpy(p, &bits, sizeof bits);
      return;
    }
  }
}

Table make_uninitialized_table(std::int64_t rows, std::int64_t cols, FormatId format) {
  const std::size_t bytes = checked_bytes(rows, cols, format);
  Table table;
  table.rows = rows;
  table.cols = cols;
  table.format = format;
  table.allocate(bytes);
  return table;
}

Table make_table(std::int64_t rows, std::int64_t cols, FormatId format) {
  Table table = make_uninitialized_table(rows, cols, format);
  // All-zero bytes are +0 in every format.
  std::memset(table.owned_.get(), 0, table.bytes().size());
  return table;
}

namespace {

// x rounded to format through the hot-path conversions (exact, see half_bits.hpp).
double rounded_to(double x, FormatId format) {
  switch (format) {
    case FormatId::float64:
      return x;
    case FormatId::float32:
      return static_cast<double>(static_cast<float>(x));
    case FormatId::float16:
      return float16_bits_to_double(round_to_float16_bits(x));
    case FormatId::bfloat16:
      return bfloat16_bits_to_double(round_to_bfloat16_bits(x));
  }
  return x;
}

}  // namespace

std::optional<TableEntry> first_entry_outside(const TableView& view, FormatId format) {
  if (storage_bytes(format) >= storage_bytes(view.format()) && format != FormatId::bfloat16 &&
      !(format == FormatId::float16 && view.format() == FormatId::bfloat16)) {
    return std::nullopt;  // a format at least as wide holds every value (bfloat16 and float16 hold different ones)
  }
  for (std::int64_t r = 0; r < view.rows(); ++r) {
    for (std::int64_t c = 0; c < view.cols(); ++c) {
      const double x = view.at(r, c);
      if (x == x && rounded_to(x, format) != x) return TableEntry{r, c};
    }
  }
  return std::nullopt;
}

namespace {

template <typename Stored, typename Decode>
void decode_each(const TableView& view, std::int64_t row, std::span<double> out, Decode decode) {
  const std::span<const Stored> stored = view.row<Stored>(row);
  for (std::size_t c = 0; c < stored.size(); ++c) out[c] = decode(stored[c]);
}

// A bfloat16 row (a rotated output's or a bfloat16 tensor's, read whole by
// the comparison and the properties): every entry first as a normal value,
// integer operations the compiler vectorises, then the few that are not
// normal (zeros, subnormals, infinities, NaNs; in most rows none) again by
// the general path. The same bits as bfloat16_bits_to_double entry by entry
// (table_test.cpp checks every pattern); on a (1, 8192, 32, 128) rotated
// output about 7x faster than it entry by entry (perf, docs/performance.md).
void decode_bfloat16_row(const TableView& view, std::int64_t row, std::span<double> out) {
  const std::span<const std::uint16_t> stored = view.row<std::uint16_t>(row);
  std::uint32_t others = 0;
  for (std::size_t c = 0; c < stored.size(); ++c) {
    out[c] = std::bit_cast<double>(detail::bfloat16_normal_to_double_bits(stored[c]));
    others |= static_cast<std::uint32_t>(!detail::bfloat16_is_normal(stored[c]));
  }
  if (others == 0) return;
  for (std::size_t c = 0; c < stored.size(); ++c) {
    if (!detail::bfloat16_is_normal(stored[c])) out[c] = bfloat16_bits_to_double(stored[c]);
  }
}

}  // namespace

void decode_row(const TableView& view, std::int64_t row, std::span<double> out) {
  switch (view.format()) {
    case FormatId::float64:
      return decode_each<double>(view, row, out, [](double x) { return x; });
    case FormatId::float32:
      return decode_each<float>(view, row, out, [](float x) { return static_cast<double>(x); });
    case FormatId::float16:
      return decode_each<std::uint16_t>(view, row, out, float16_bits_to_double);
    case FormatId::bfloat16:
      return decode_bfloat16_row(view, row, out);
  }
}

std::vector<double> table_doubles(const TableView& view) {
  const auto cols = static_cast<std::size_t>(view.cols());
  std::vector<double> values(static_cast<std::size_t>(view.rows()) * cols);
  for (std::int64_t r = 0; r < view.rows(); ++r) {
    decode_row(view, r, std::span(values).subspan(static_cast<std::size_t>(r) * cols, cols));
  }
  return values;
}

Table convert_table(const TableView& view, FormatId format) {
  Table table = make_uninitialized_table(view.rows(), view.cols(), format);
  for (std::int64_t r = 0; r < view.rows(); ++r) {
    for (std::int64_t c = 0; c < view.cols(); ++c) table.set(r, c, view.at(r, c));
  }
  return table;
}

Table borrowed_table(const TableView& view) {
  if (!view.contiguous()) return copy_table(view);
  Table table;
  table.rows = view.rows();
  table.cols = view.cols();
  table.format = view.format();
  table.data_ = static_cast<const std::byte*>(view.data());
  return table;
}

Table copy_table(const TableView& view) {
  Table table = make_uninitialized_table(view.rows(), view.cols(), view.format());
  const auto element = static_cast<std::size_t>(storage_bytes(view.format()));
  const auto row_bytes = static_cast<std::size_t>(view.cols()) * element;
  std::byte* out = table.mutable_bytes().data();
  const auto* in = static_cast<const std::byte*>(view.data());
  for (std::int64_t r = 0; r < view.rows(); ++r) {
    std::memcpy(out + static_cast<std::size_t>(r) * row_bytes,
                in + static_cast<std::size_t>(r * view.stride()) * element, row_bytes);
  }
  return table;
}

}  // namespace pecheck
