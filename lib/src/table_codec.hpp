// What both table formats do the same way: check a claimed shape against the
// bytes present before allocating, and turn table values into stored bits.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "pecheck/table.hpp"

namespace pecheck::detail {

// rows * cols entries of itemsize bytes must fill data_bytes exactly (a
// header that claims more or fewer is lying); returns rows * cols. Never
// overflows: the product is compared by division. what names the claim in
// the message, e.g. "(3, 4) of '<f8'".
std::uint64_t checked_entries(std::uint64_t rows, std::uint64_t cols, int itemsize, std::uint64_t data_bytes,
                              std::string_view name, std::string_view field, const std::string& what);

// make_table for a shape already checked against the file, with its limit
// (2^31 entries) and allocation failure reported as TableFileError.
Table make_checked_table(std::uint64_t rows, std::uint64_t cols, FormatId format, std::string_view name);

// The writer's precondition: rows, cols >= 0 and rows * cols values.
void check_table_shape(const Table& table, std::string_view name);

// The bits of table.values[k] stored as format stored (table.format itself,
// or float32 for a bfloat16 table in .npy); TableFileError naming the row and
// column when the value is not exactly a value of table.format.
std::uint64_t table_value_bits(const Table& table, std::size_t k, FormatId stored, std::string_view name);

}  // namespace pecheck::detail
