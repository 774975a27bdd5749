// What the table readers and writers share: the error type, what a reader
// found in the file besides the values, dispatch by file extension, and the
// atomic write every writer uses (atomic_file.hpp).
//
// The formats themselves are in npy.hpp and safetensors.hpp.
#pragma once

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <map>
#include <optional>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "pecheck/atomic_file.hpp"
#include "pecheck/produced_table.hpp"
#include "pecheck/table.hpp"

namespace pecheck {

// A file that cannot be read or written as a table. The message is always one
// line, "<path>: <field>: <what is wrong> (expected <what>)"; control bytes
// and non-ASCII bytes taken from the file or the path are shown as \xNN
// escapes, so nothing from an untrusted file can break the line.
class TableFileError : public std::runtime_error {
 public:
  TableFileError(std::string_view path, std::string_view field, std::string_view problem,
                 std::string_view expected);
  // A message already in that form (from FileWriteError).
  explicit TableFileError(const std::string& message) : std::runtime_error(message) {}
};

enum class ByteOrder { little, big };
enum class StorageOrder { row_major, column_major };

// What a reader found, beyond the values: enough to tell the user what the
// file held when it is not what they meant to write.
struct TableFileInfo {
  std::string dtype;  // as stored: "<f4", ">f8", "BF16", ...
  ByteOrder byte_order = ByteOrder::little;
  StorageOrder storage_order = StorageOrder::row_major;
  int ndim = 2;              // 1 or 2; a 1-D array of length d is read as one row of d columns;
                             // 3 or 4 for (N, 1, d), (1, N, d) and (1, 1, N, d), read as (N, d)
  std::string shape_note;    // what was read when extents of 1 were dropped; empty otherwise
  std::string version;       // .npy: "1.0", "2.0" or "3.0"; empty for .safetensors
  std::string tensor_name;   // .safetensors: the tensor read; empty for .npy
  std::map<std::string, std::string> metadata;  // .safetensors "__metadata__"; empty for .npy
};

struct TableFile {
  Table table;
  TableFileInfo info;
};

enum class TableFileKind { npy, safetensors };

// The most rows a reader accepts, and why, for its refusal. Compared with the
// header's shape before a byte of the payload is read or allocated, so a file
// claiming more rows than its reader's caller can use costs nothing to refuse.
struct TableRowLimit {
  std::uint64_t rows;
  std::string_view reason;  // "one per position ..."; follows "at most N rows, "
};

// Any table file: a relative encoding's table, whose rows run from position
// 2^24 - 1 down to -(2^24 - 1), is the longest table of positions float32
// holds exactly.
inline constexpr TableRowLimit any_table_rows{(std::uint64_t{1} << 25) - 1,
                                              "the most any table of positions in (-2^24, 2^24) holds"};
// A table or cache of one row per position, 0 up: what validate compares.
inline constexpr TableRowLimit position_table_rows{std::uint64_t{1} << 24,
                                                   "one per position float32 holds exactly"};

// Told, as a reader fills a table, how many of its rows are in place: whole
// rows, in increasing counts, the last call the table's rows. A pass over the
// values made as they arrive finds them in the processor's caches, where a
// pass after the read fetches each from memory again (validate's pass over a
// rotary cache, rotary_read_pass.hpp). A reader given none reads as it would.
using RowsInPlace = std::function<void(const Table& table, std::int64_t rows)>;

// By extension, case-insensitive: ".npy" or ".safetensors"; nullopt otherwise.
std::optional<TableFileKind> table_file_kind(const std::filesystem::path& path);

// Reads or writes by extension; any other extension is a TableFileError.
// tensor_name is used by .safetensors only (see read_safetensors / write_safetensors).
TableFile read_table_file(const std::filesystem::path& path,
                          const std::optional<std::string>& tensor_name = std::nullopt,
                          const TableRowLimit& max_rows = any_table_rows, const RowsInPlace& rows_in_place = {});
void write_table_file(const std::filesystem::path& path, const TableView& table);
void write_table_file(const std::filesystem::path& path, const ProducedTable& table);

// The whole of a small file (a JSON document, say) in memory, or a
// TableFileError naming the path and the OS reason. Tables are never read so:
// the readers above read the header first and the payload into the table.
std::vector<std::byte> read_file_bytes(const std::filesystem::path& path);

}  // namespace pecheck
