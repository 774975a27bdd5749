// A rows-by-columns table of values of one format, stored in the format's own
// type: float64 as double, float32 as float, float16 and bfloat16 as their
// 16-bit patterns. Every bit pattern of the storage type is a value of the
// format (NaN payloads included), so nothing that reads a table re-checks it.
//
// Read through at(r, c) (the value, exactly, as a double) or view(); write
// with set(r, c, x), which stores x rounded to the format, or, on the hot
// path, through storage<T>() in the storage type itself.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <type_traits>
#include <vector>

#include "pecheck/format.hpp"
#include "pecheck/page_buffer.hpp"

namespace pecheck {

// The C++ type a format's values are stored in.
template <FormatId F>
using storage_type_t = std::conditional_t<F == FormatId::float64, double,
                                          std::conditional_t<F == FormatId::float32, float, std::uint16_t>>;

constexpr int storage_bytes(FormatId format) {
  switch (format) {
    case FormatId::float64:
      return 8;
    case FormatId::float32:
      return 4;
    case FormatId::float16:
    case FormatId::bfloat16:
      return 2;
  }
  return 0;
}

// True when T is the storage type of format (float16 and bfloat16 share std::uint16_t).
template <typename T>
constexpr bool stores_format(FormatId format) {
  switch (format) {
    case FormatId::float64:
      return std::is_same_v<T, double>;
    case FormatId::float32:
      return std::is_same_v<T, float>;
    case FormatId::float16:
    case FormatId::bfloat16:
      return std::is_same_v<T, std::uint16_t>;
  }
  return false;
}

namespace detail {

// The value an element of the format's storage holds; p points at it.
inline double decode_stored(FormatId format, const std::byte* p) {
  switch (format) {
    case FormatId::float64:
      return *reinterpret_cast<const double*>(p);
    case FormatId::float32:
      return static_cast<double>(*reinterpret_cast<const float*>(p));
    case FormatId::float16:
      return float16_bits_to_double(*reinterpret_cast<const std::uint16_t*>(p));
    case FormatId::bfloat16:
      return bfloat16_bits_to_double(*reinterpret_cast<const std::uint16_t*>(p));
  }
  return 0.0;
}

[[noreturn]] void throw_storage_type_mismatch(FormatId format, std::size_t element_size);

}  // namespace detail

// A read-only window on a table: rows x cols values of one format, row r
// starting stride elements after row r - 1. Checks and writers read through
// it; it does not own the values and must not outlive their table.
class TableView {
 public:
  TableView() = default;
  TableView(FormatId format, std::int64_t rows, std::int64_t cols, std::int64_t stride, const void* data)
      : format_(format), rows_(rows), cols_(cols), stride_(stride), data_(static_cast<const std::byte*>(data)) {}

  FormatId format() const { return format_; }
  std::int64_t rows() const { return rows_; }
  std::int64_t cols() const { return cols_; }
  std::int64_t stride() const { return stride_; }
  const void* data() const { return data_; }
  bool contiguous() const { return stride_ == cols_ || rows_ <= 1; }

  double at(std::int64_t row, std::int64_t col) const {
    return detail::decode_stored(format_, data_ + (row * stride_ + col) * storage_bytes(format_));
  }
  // Row r in the storage type T, which must be the format's (else std::logic_error).
  template <typename T>
  std::span<const T> row(std::int64_t r) const {
    if (!stores_format<T>(format_)) detail::throw_storage_type_mismatch(format_, sizeof(T));
    return {reinterpret_cast<const T*>(data_) + r * stride_, static_cast<std::size_t>(cols_)};
  }
  // Rows [first, first + count) of this view.
  TableView row_block(std::int64_t first, std::int64_t count) const {
    return TableView(format_, count, cols_, stride_, data_ + first * stride_ * storage_bytes(format_));
  }

 private:
  FormatId format_ = FormatId::float32;
  std::int64_t rows_ = 0;
  std::int64_t cols_ = 0;
  std::int64_t stride_ = 0;
  const std::byte* data_ = nullptr;
};

// An owning table. rows, cols and format describe the storage: they are set
// by make_table and the readers and must not be changed afterwards.
// The values live in a buffer the table owns, 64-byte aligned (the kernels
// store whole cache lines), copied with the table.
class Table {
 public:
  std::int64_t rows = 0;
  std::int64_t cols = 0;
  FormatId format = FormatId::float32;

  Table() = default;
  Table(const Table& other);
  Table& operator=(const Table& other);
  Table(Table&&) noexcept = default;
  Table& operator=(Table&&) noexcept = default;
  ~Table() = default;

  double at(std::int64_t row, std::int64_t col) const {
    return detail::decode_stored(format, data_ + (row * cols + col) * storage_bytes(format));
  }
  // Entry k counting row after row: at(k / cols, k % cols).
  double flat(std::int64_t k) const {
    return detail::decode_stored(format, data_ + k * storage_bytes(format));
  }
  void set_flat(std::int64_t k, double x) { set(k / cols, k % cols, x); }

  // Stores x rounded to the table's format (round to nearest even; exact when
  // x is a value of the format). A NaN keeps as much payload as the format holds.
  void set(std::int64_t row, std::int64_t col, double x);

  TableView view() const { return TableView(format, rows, cols, cols, data_); }
  // A table is read wherever a view is (as std::string is where a string_view is).
  operator TableView() const { return view(); }  // NOLINT(google-explicit-constructor)
  std::int64_t size() const { return rows * cols; }
  std::span<const std::byte> bytes() const {
    return {data_, static_cast<std::size_t>(size() * storage_bytes(format))};
  }

  // The values in the storage type T, which must be the format's (else std::logic_error).
  template <typename T>
  std::span<T> storage() {
    if (!stores_format<T>(format)) detail::throw_storage_type_mismatch(format, sizeof(T));
    return {reinterpret_cast<T*>(mutable_data()), static_cast<std::size_t>(size())};
  }
  template <typename T>
  std::span<const T> storage() const {
    if (!stores_format<T>(format)) detail::throw_storage_type_mismatch(format, sizeof(T));
    return {reinterpret_cast<const T*>(data_), static_cast<std::size_t>(size())};
  }

  // The storage as bytes, for readers that fill it from a file: any bit
  // pattern is a value of the format, so no write through it breaks the table.
  std::span<std::byte> mutable_bytes() { return {mutable_data(), bytes().size()}; }

 private:
  friend Table make_table(std::int64_t rows, std::int64_t cols, FormatId format);
  friend Table make_uninitialized_table(std::int64_t rows, std::int64_t cols, FormatId format);

  std::byte* mutable_data() { return owned_.get(); }
  void allocate(std::size_t bytes);

  PageBuffer owned_;
  const std::byte* data_ = nullptr;
};

// A zero-filled table (+0 in every entry, whatever the format). Throws
// TableAllocationError when the shape is negative, overflows, or cannot be
// allocated.
Table make_table(std::int64_t rows, std::int64_t cols, FormatId format);
// The same without the zero fill, for a kernel that writes every entry.
Table make_uninitialized_table(std::int64_t rows, std::int64_t cols, FormatId format);

struct TableEntry {
  std::int64_t row = 0;
  std::int64_t col = 0;
};

// The first entry (row by row) of view whose value is not a value of format,
// or nullopt when format holds them all. NaN counts as a value of every format.
std::optional<TableEntry> first_entry_outside(const TableView& view, FormatId format);

// Row `row` of the view as doubles (the values view.at gives), the format
// looked at once per row rather than once per entry; `out` holds view.cols()
// values. The one row decoder: every reading of a stored row goes through it.
void decode_row(const TableView& view, std::int64_t row, std::span<double> out);

// The view's values as doubles (exact), row after row: for numerics done in
// double (Eigen maps, moments), never for storage.
std::vector<double> table_doubles(const TableView& view);

// The view's values rounded to format (exact when format holds them all).
Table convert_table(const TableView& view, FormatId format);
// A copy of the view's values in their own format.
Table copy_table(const TableView& view);

}  // namespace pecheck
