// What every fuzz target asserts about a reader, whatever the bytes: it either
// returns a consistent table that survives being written and read again bit
// for bit, or throws TableFileError with a one-line message naming the input.
// Anything else (another exception, a crash, a sanitizer report) is a bug.
#pragma once

#include <bit>
#include <cstdint>
#include <cstdlib>
#include <string_view>

#include "pecheck/table_file.hpp"
#include "pecheck/testing/table_values.hpp"

using pecheck::testing::flat_at;

namespace pecheck::fuzz {

inline void check(bool condition) {
  if (!condition) std::abort();
}

inline void check_error(const TableFileError& error, std::string_view name) {
  const std::string_view message = error.what();
  check(message.find('\n') == std::string_view::npos);
  check(message.substr(0, name.size() + 2) == std::string(name) + ": ");
  check(message.find(" (expected ") != std::string_view::npos);
}

inline void check_table(const TableFile& file) {
  const Table& table = file.table;
  check(table.rows >= 0 && table.cols >= 0);
  check(table.bytes().size() == static_cast<std::size_t>(table.rows * table.cols * storage_bytes(table.format)));
  // (d,), (N, d), or (N, 1, d), (1, N, d), (1, 1, N, d) read as (N, d), saying so.
  check(file.info.ndim >= 1 && file.info.ndim <= 4);
  check(file.info.ndim != 1 || table.rows == 1);
  check((file.info.ndim > 2) == !file.info.shape_note.empty());
}

// Same bits, NaN payloads included.
inline void check_same_values(const Table& a, const Table& b) {
  check(a.rows == b.rows && a.cols == b.cols && static_cast<std::size_t>(a.rows * a.cols) == static_cast<std::size_t>(b.rows * b.cols));
  for (std::size_t k = 0; k < static_cast<std::size_t>(a.rows * a.cols); ++k) {
    check(std::bit_cast<std::uint64_t>(flat_at(a, static_cast<std::int64_t>(k))) == std::bit_cast<std::uint64_t>(flat_at(b, static_cast<std::int64_t>(k))));
  }
}

}  // namespace pecheck::fuzz
