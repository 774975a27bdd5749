// What both table file formats do the same way: check a claimed shape against
// the bytes present before allocating, read the payload straight into the
// table's typed storage, and write the payload from it.
#pragma once

#include <cstdint>
#include <filesystem>
#include <functional>
#include <span>
#include <string>
#include <string_view>

#include "byte_source.hpp"
#include "pecheck/produced_table.hpp"
#include "pecheck/table.hpp"
#include "pecheck/table_file.hpp"

namespace pecheck::detail {

// rows * cols entries of itemsize bytes must fill data_bytes exactly (a
// header that claims more or fewer is lying); returns rows * cols. Never
// overflows: the product is compared by division. what names the claim in
// the message, e.g. "(3, 4) of '<f8'".
std::uint64_t checked_entries(std::uint64_t rows, std::uint64_t cols, int itemsize, std::uint64_t data_bytes,
                              std::string_view name, std::string_view field, const std::string& what);

// The table a checked header describes, read from source at offset: rows *
// cols elements of format's storage width in byte_order, stored row after row
// or column after column. More rows than max_rows (table_file.hpp), or a
// table this machine cannot hold, is a TableFileError naming the size it
// needs, raised before anything is read or allocated. rows_in_place, when
// given, is told as rows are read (table_file.hpp): row-major payloads in
// blocks of about 1 MiB, others once at the end.
Table read_table_payload(const ByteSource& source, std::uint64_t offset, std::uint64_t rows, std::uint64_t cols,
                         FormatId format, ByteOrder byte_order, StorageOrder storage_order,
                         const TableRowLimit& max_rows = any_table_rows, const RowsInPlace& rows_in_place = {});

// Receives a writer's bytes in order: an AtomicFile, or a vector in memory.
using ByteSink = std::function<void(std::span<const std::byte>)>;

// The view's values as `stored` (the view's own format, or float32 for a
// bfloat16 table in .npy, which holds every bfloat16 value exactly), little
// endian, row-major. A contiguous view in its own format on a little-endian
// machine is handed to the sink as it is, in one piece.
void write_table_payload(const TableView& view, FormatId stored, const ByteSink& sink);

std::uint64_t payload_bytes(const TableView& view, FormatId stored);

// header then the payload, atomically; a failure is a TableFileError naming path.
void write_table_atomically(const std::filesystem::path& path, std::span<const std::byte> header,
                            const TableView& view, FormatId stored);
// The same for a table produced a block of rows at a time: one block in
// memory (write_block_bytes of storage), filled and written in turn.
void write_table_atomically(const std::filesystem::path& path, std::span<const std::byte> header,
                            const ProducedTable& blocks, FormatId stored);


}  // namespace pecheck::detail
