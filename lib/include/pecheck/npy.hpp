// NumPy .npy tables: a strict reader and a writer.
//
// Reading accepts format versions 1.0, 2.0 and 3.0 (3.0 only differs by a
// UTF-8 header); dtypes float16, float32 and float64 ('f2', 'f4', 'f8') in
// either explicit byte order '<' or '>'; C or Fortran order; 1-D or 2-D
// shapes. A 1-D array of length d is read as one row of d columns (a table
// row is one position's encoding, and a lone vector is one position).
// '=' (native) and '|' (not applicable) are refused for these dtypes: a file
// moves between machines, so its byte order must be stated.
//
// The header is parsed as the Python dict literal NumPy writes, strictly: the
// keys 'descr', 'fortran_order' and 'shape', exactly once each, in any order,
// with an optional trailing comma; then spaces and a final newline. The shape
// must account for every data byte of the file, no more and no fewer.
//
// Writing produces format 1.0 (2.0 only if the header outgrew 1.0's 16-bit
// length), C order, little endian, shape (rows, cols), with the data starting
// at a multiple of 64 bytes. float64, float32 and float16 are stored as
// '<f8', '<f4' and '<f2'; NumPy has no bfloat16, so a bfloat16 table is
// stored as '<f4' holding the bfloat16 values exactly (and reads back as a
// float32 table with the same values).
#pragma once

#include <cstddef>
#include <filesystem>
#include <span>
#include <string_view>
#include <vector>

#include "pecheck/produced_table.hpp"
#include "pecheck/table.hpp"
#include "pecheck/table_file.hpp"

namespace pecheck {

// Throws TableFileError for anything but a well-formed file as described
// above. The preamble and header are read first and the shape checked against
// the file's size before anything else is read or allocated; the values are
// then read straight into the table's storage (swapped only for a big-endian
// file, transposed only for Fortran order). More rows than max_rows is
// refused from the header. rows_in_place is told as the rows are read
// (table_file.hpp).
TableFile read_npy(const std::filesystem::path& path, const TableRowLimit& max_rows = any_table_rows,
                   const RowsInPlace& rows_in_place = {});
// The same from memory; display_name stands for the path in error messages.
TableFile read_npy_bytes(std::span<const std::byte> bytes, std::string_view display_name);

// The file's bytes: the header, then the payload as the table stores it.
std::vector<std::byte> encode_npy(const Table& table);
// Atomic (see atomic_file.hpp); the payload goes from the table's storage to
// the file without a copy of the table.
void write_npy(const std::filesystem::path& path, const TableView& table);
// The same for a table produced a block of rows at a time (row_blocks.hpp).
void write_npy(const std::filesystem::path& path, const ProducedTable& table);

}  // namespace pecheck
