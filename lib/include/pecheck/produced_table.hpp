// A table produced a block of rows at a time.
//
// A writer that takes ProducedTable holds one block, never the whole table: the
// memory a command needs is a few MiB however many rows it writes, and the
// block stays in cache between the kernel that fills it and the write() that
// copies it out (a whole 8192 x 1024 float32 table is 32 MiB of fresh pages
// to fault in and zero before a single byte is written).
//
// The writer fills up to `workers` blocks at once, each on its own thread and
// each written at its own offset as soon as it is full: while one thread's
// write() copies its block into the file, the others fill theirs. The threads
// start once per table, not once per block.
#pragma once

#include <cstdint>
#include <functional>

#include "pecheck/table.hpp"

namespace pecheck {

struct ProducedTable {
  FormatId format = FormatId::float32;
  std::int64_t rows = 0;
  std::int64_t cols = 0;
  // How many blocks the writer may fill at once (at least 1).
  int workers = 1;
  // Fills every entry of block (block.cols == cols, block.format == format)
  // with rows [first_row, first_row + block.rows) of the table, on the calling
  // thread. Called concurrently for different blocks when workers > 1.
  std::function<void(std::int64_t first_row, Table& block)> produce;

  // The table's shape and format without its values, for writing a header.
  TableView shape() const { return TableView(format, rows, cols, cols, nullptr); }
};

// Rows per block for a writer: about `target_bytes` of storage, at least one row.
std::int64_t rows_per_block(const ProducedTable& table, std::int64_t target_bytes);

}  // namespace pecheck
