#include "table_codec.hpp"

#include <algorithm>
#include <condition_variable>
#include <bit>
#include <cstring>
#include <limits>
#include <mutex>
#include <stdexcept>
#include <vector>

#include "pecheck/atomic_file.hpp"
#include "pecheck/memory_limit.hpp"
#include "pecheck/parallel_for.hpp"
#include "pecheck/table_errors.hpp"

namespace pecheck::detail {

namespace {

// Block size for reads and writes that convert: large enough that a call
// costs nothing beside the copy, small enough to stay in L2.
constexpr std::size_t block_bytes = std::size_t{1} << 20;
// A produced table's blocks in flight (shared by the writer's threads): large
// enough that a write() call per block costs nothing beside filling it, small
// enough to stay in the last-level cache until write() copies it out.
constexpr std::int64_t write_block_bytes = std::int64_t{4} << 20;

void swap_elements(std::span<std::byte> bytes, int itemsize) {
  for (std::size_t k = 0; k + static_cast<std::size_t>(itemsize) <= bytes.size(); k += static_cast<std::size_t>(itemsize)) {
    std::reverse(bytes.begin() + static_cast<std::ptrdiff_t>(k),
                 bytes.begin() + static_cast<std::ptrdiff_t>(k) + itemsize);
  }
}

bool host_order_is(ByteOrder order) {
  return (order == ByteOrder::little) == (std::endian::native == std::endian::little);
}

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

Table read_table_payload(const ByteSource& source, std::uint64_t offset, std::uint64_t rows, std::uint64_t cols,
                         FormatId format, ByteOrder byte_order, StorageOrder storage_order,
                         const TableRowLimit& max_rows, const RowsInPlace& rows_in_place) {
  // From the header, before a byte of the payload is read or allocated. The
  // shape was checked against the file's size: rows * cols * itemsize fits.
  if (rows > max_rows.rows) {
    const std::uint64_t bytes = rows * cols * static_cast<std::uint64_t>(storage_bytes(format));
    throw TableFileError(source.name(), "shape",
                         std::to_string(rows) + " rows of " + std::to_string(cols) + " columns (" +
                             byte_count_text(bytes) + " of data)",
                         "at most " + std::to_string(max_rows.rows) + " rows, " + std::string(max_rows.reason));
  }
  Table table;
  try {
    table = make_uninitialized_table(static_cast<std::int64_t>(rows), static_cast<std::int64_t>(cols), format);
  } catch (const MemoryLimitError& error) {
    throw TableFileError(source.name(), "shape", error.what(), "a table that fits in memory");
  } catch (const TableShapeError& error) {
    throw TableFileError(source.name(), "shape", error.what(), "a table that fits in memory");
  }
  const std::span<std::byte> out = table.mutable_bytes();
  const int itemsize = storage_bytes(format);
  const bool swap = !host_order_is(byte_order);
  if (storage_order == StorageOrder::row_major || rows <= 1 || cols <= 1) {
    // Straight into the table's storage, then swapped in place if need be;
    // whole rows of about block_bytes at a time for rows_in_place.
    const std::size_t row_bytes = static_cast<std::size_t>(cols) * static_cast<std::size_t>(itemsize);
    const std::size_t step =
        rows_in_place ? std::max<std::size_t>(1, block_bytes / std::max<std::size_t>(1, row_bytes)) * row_bytes
                      : block_bytes * 64;
    for (std::size_t done = 0; done < out.size();) {
      const std::size_t count = std::min(out.size() - done, step);
      source.read(offset + done, out.subspan(done, count));
      if (swap) swap_elements(out.subspan(done, count), itemsize);
      done += count;
      if (rows_in_place) rows_in_place(table, static_cast<std::int64_t>(done / row_bytes));
    }
    if (rows_in_place && out.empty()) rows_in_place(table, static_cast<std::int64_t>(rows));
    return table;
  }
  // Fortran order stores column after column: stored element k is (k % rows, k / rows).
  std::vector<std::byte> block(block_bytes);
  const std::uint64_t entries = rows * cols;
  const std::uint64_t per_block = block_bytes / static_cast<std::uint64_t>(itemsize);
  for (std::uint64_t first = 0; first < entries; first += per_block) {
    const std::uint64_t count = std::min(per_block, entries - first);
    const std::span<std::byte> chunk(block.data(), count * static_cast<std::uint64_t>(itemsize));
    source.read(offset + first * static_cast<std::uint64_t>(itemsize), chunk);
    if (swap) swap_elements(chunk, itemsize);
    for (std::uint64_t j = 0; j < count; ++j) {
      const std::uint64_t k = first + j;
      const std::uint64_t index = (k % rows) * cols + k / rows;
      std::memcpy(out.data() + index * static_cast<std::uint64_t>(itemsize),
                  chunk.data() + j * static_cast<std::uint64_t>(itemsize), static_cast<std::size_t>(itemsize));
    }
  }
  if (rows_in_place) rows_in_place(table, static_cast<std::int64_t>(rows));
  return table;
}

std::uint64_t payload_bytes(const TableView& view, FormatId stored) {
  return static_cast<std::uint64_t>(view.rows()) * static_cast<std::uint64_t>(view.cols()) *
         static_cast<std::uint64_t>(storage_bytes(stored));
}

void write_table_payload(const TableView& view, FormatId stored, const ByteSink& sink) {
  const int itemsize = storage_bytes(stored);
  const bool little_host = std::endian::native == std::endian::little;
  if (stored == view.format() && little_host && view.contiguous()) {
    const auto* data = static_cast<const std::byte*>(view.data());
    sink({data, static_cast<std::size_t>(payload_bytes(view, stored))});
    return;
  }
  // A row at a time through a block: converted to `stored` (only bfloat16 to
  // float32, exact: the bfloat16 bits are the top half of the float32's) and
  // to little endian.
  std::vector<std::byte> block;
  const auto row_bytes = static_cast<std::size_t>(view.cols()) * static_cast<std::size_t>(itemsize);
  block.reserve(std::max(block_bytes, row_bytes));
  for (std::int64_t r = 0; r < view.rows(); ++r) {
    const std::size_t at = block.size();
    block.resize(at + row_bytes);
    std::byte* out = block.data() + at;
    if (stored == view.format()) {
      const auto* row = static_cast<const std::byte*>(view.data()) +
                        static_cast<std::size_t>(r * view.stride()) * static_cast<std::size_t>(itemsize);
      std::memcpy(out, row, row_bytes);
    } else if (view.format() == FormatId::bfloat16 && stored == FormatId::float32) {
      const std::span<const std::uint16_t> row = view.row<std::uint16_t>(r);
      for (std::size_t c = 0; c < row.size(); ++c) {
        const std::uint32_t bits = std::uint32_t{row[c]} << 16;
        std::memcpy(out + c * 4, &bits, 4);
      }
    } else {
      throw std::logic_error("write_table_payload: a " + std::string(format_of(view.format()).name) +
                             " table cannot be stored as " + std::string(format_of(stored).name));
    }
    if (!little_host) swap_elements({out, row_bytes}, itemsize);
    if (block.size() >= block_bytes) {
      sink(block);
      block.clear();
    }
  }
  if (!block.empty()) sink(block);
}

void write_table_atomically(const std::filesystem::path& path, std::span<const std::byte> header,
                            const TableView& view, FormatId stored) {
  try {
    AtomicFile file(path);
    file.write(header);
    write_table_payload(view, stored, [&](std::span<const std::byte> bytes) { file.write(bytes); });
    file.commit();
  } catch (const FileWriteError& error) {
    // The message already reads "<path>: write: <reason> (expected ...)".
    throw TableFileError(error.what());
  }
}

void write_table_atomically(const std::filesystem::path& path, std::span<const std::byte> header,
                            const ProducedTable& blocks, FormatId stored) {
  try {
    AtomicFile file(path);
    file.write_at(0, header);
    const int workers = std::max(blocks.workers, 1);
    // The same bytes in flight as one writer with one block: each worker's
    // block is a share of write_block_bytes.
    const std::int64_t per_block = rows_per_block(blocks, write_block_bytes / workers);
    const std::int64_t block_count = (blocks.rows + per_block - 1) / per_block;
    const std::uint64_t row_bytes =
        static_cast<std::uint64_t>(blocks.cols) * static_cast<std::uint64_t>(storage_bytes(stored));
    // The blocks are written in order, each worker waiting (asleep) for the
    // block before its own: two write() calls into one file serialise on the
    // file's lock anyway, and a writer spinning on that lock burns the core
    // another worker would fill its next block on.
    std::mutex turn_mutex;
    std::condition_variable turn_changed;
    std::int64_t next_to_write = 0;
    bool failed = false;  // set when a worker fails, so the others stop
    const auto wait_for_turn = [&](std::int64_t b) {
      std::unique_lock<std::mutex> lock(turn_mutex);
      turn_changed.wait(lock, [&] { return failed || next_to_write == b; });
      return !failed;
    };
    const auto pass_turn = [&](std::int64_t next, bool failure) {
      {
        const std::lock_guard<std::mutex> lock(turn_mutex);
        if (failure) failed = true;
        else next_to_write = next;
      }
      turn_changed.notify_all();
    };
    // Worker w takes blocks w, w + workers, ...: it fills its block while
    // another worker's write() copies the block before it into the file.
    parallel_for(workers, [&](int w) {
      try {
        Table block;
        for (std::int64_t b = w; b < block_count; b += workers) {
          const std::int64_t first = b * per_block;
          const std::int64_t count = std::min(per_block, blocks.rows - first);
          // One allocation for every full block, one more for a shorter last one.
          if (block.rows != count) block = make_uninitialized_table(count, blocks.cols, blocks.format);
          blocks.produce(first, block);
          if (!wait_for_turn(b)) return;
          std::uint64_t at = header.size() + static_cast<std::uint64_t>(first) * row_bytes;
          write_table_payload(block.view(), stored, [&](std::span<const std::byte> bytes) {
            file.write_at(at, bytes);
            at += bytes.size();
          });
          pass_turn(b + 1, false);
        }
      } catch (...) {
        pass_turn(0, true);
        throw;
      }
    });
    file.commit();
  } catch (const FileWriteError& error) {
    throw TableFileError(error.what());
  }
}

}  // namespace pecheck::detail
