// .safetensors tables: a strict reader and a writer.
//
// The layout: an 8-byte little-endian header length N, N bytes of a UTF-8
// JSON object, then the data area. Each key of the object but "__metadata__"
// (an optional object of strings) names a tensor:
//   {"dtype": "F32", "shape": [rows, cols], "data_offsets": [begin, end]}
// with offsets relative to the data area.
//
// Reading checks the whole header, not only the tensor asked for: N is at
// most 100,000,000 (the limit of the reference implementation) and within
// the file; the JSON is valid, nests no deeper than the format needs, and
// repeats no key; every entry has exactly those three fields; offsets lie in
// the data area, match shape * itemsize for every dtype whose size is known,
// and the tensors tile the data area without gap or overlap. The tensor read
// must be F16, BF16, F32 or F64, with 1 or 2 dimensions (a 1-D tensor of
// length d is one row of d columns, as for .npy). Without a name the file
// must hold exactly one tensor; otherwise the error lists the names.
//
// Writing stores one tensor natively (F64, F32, F16 or BF16), shape
// [rows, cols], with "__metadata__" only when metadata is given, the header
// padded with spaces so the data starts at a multiple of 8 bytes.
#pragma once

#include <cstddef>
#include <filesystem>
#include <map>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "pecheck/produced_table.hpp"
#include "pecheck/table.hpp"
#include "pecheck/table_file.hpp"

namespace pecheck {

// More rows than max_rows is refused from the header, and rows_in_place told
// as the rows are read, as read_npy does.
TableFile read_safetensors(const std::filesystem::path& path,
                           const std::optional<std::string>& tensor_name = std::nullopt,
                           const TableRowLimit& max_rows = any_table_rows, const RowsInPlace& rows_in_place = {});
// The same from memory; display_name stands for the path in error messages.
TableFile read_safetensors_bytes(std::span<const std::byte> bytes, std::string_view display_name,
                                 const std::optional<std::string>& tensor_name = std::nullopt);

// The file's bytes. Throws TableFileError (naming display_name) for a tensor
// name that is empty, "__metadata__" or not UTF-8, or metadata that is not UTF-8.
std::vector<std::byte> encode_safetensors(const Table& table, std::string_view display_name,
                                          std::string_view tensor_name = "pe",
                                          const std::map<std::string, std::string>& metadata = {});
// Atomic (see atomic_file.hpp); the payload goes from the table's storage to
// the file without a copy of the table.
void write_safetensors(const std::filesystem::path& path, const TableView& table, std::string_view tensor_name = "pe",
                       const std::map<std::string, std::string>& metadata = {});
// The same for a table produced a block of rows at a time (row_blocks.hpp).
void write_safetensors(const std::filesystem::path& path, const ProducedTable& table, std::string_view tensor_name = "pe",
                       const std::map<std::string, std::string>& metadata = {});

}  // namespace pecheck
