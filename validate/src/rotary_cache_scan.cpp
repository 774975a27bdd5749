#include "rotary_cache_scan.hpp"

#include <algorithm>

namespace pecheck::validate {

namespace {

// Rows per block: about 8 KiB of values (16 float32 rows of 128), in L1
// between the two readings. Measured over a 65536 x 128 float32 cos: the
// row comparisons added 0.1 ms to the extent's 0.7 with 8 KiB blocks, 0.3 ms
// with 32 KiB ones, 0.4 ms as a pass of their own.
std::int64_t rows_in(const Table& table, std::int64_t bytes) {
  const std::int64_t row_bytes = std::max<std::int64_t>(1, table.cols * storage_bytes(table.format));
  return std::max<std::int64_t>(1, bytes / row_bytes);
}

// Rows per chunk: about 1 MiB of values, some 50 microseconds of scanning,
// so that a thread taking chunks between other work is soon free for it.
constexpr std::int64_t chunk_bytes = std::int64_t{1} << 20;

std::size_t chunk_count(std::int64_t rows, std::int64_t chunk_rows) {
  return static_cast<std::size_t>((rows + chunk_rows - 1) / chunk_rows);
}

}  // namespace

RotaryCacheScanner::RotaryCacheScanner(const Table& cos, const Table& sin)
    : cos_(cos),
      sin_(sin),
      chunk_rows_(rows_in(cos, chunk_bytes)),
      cos_chunks_(chunk_count(cos.rows, chunk_rows_)),
      chunks_(cos_chunks_ + chunk_count(sin.rows, chunk_rows_)),
      parts_(chunks_) {
  scan_.successive = successive_rows_to_add(cos.rows);
}

bool RotaryCacheScanner::scan_next() {
  const std::size_t k = next_++;
  if (k >= chunks_) return false;
  Part& part = parts_[k];
  const bool of_cos = k < cos_chunks_;
  const std::int64_t first = static_cast<std::int64_t>(of_cos ? k : k - cos_chunks_) * chunk_rows_;
  const Table& table = of_cos ? cos_ : sin_;
  const std::int64_t end = std::min(table.rows, first + chunk_rows_);
  if (!of_cos) {
    part.extent = value_extent(table, first, end);
  } else {
    const TableView rows = cos_.view();
    const std::int64_t step = rows_in(cos_, std::int64_t{8} << 10);
    for (std::int64_t block = first; block < end; block += step) {
      const std::int64_t block_end = std::min(end, block + step);
      part.extent = combined(part.extent, value_extent(cos_, block, block_end));
      // The pairs (r, r + 1) whose first row is in the block (the last one's
      // second row starts the next block).
      const SuccessiveCount count =
          add_successive_rows(rows, block, std::min(block_end, cos_.rows - 1), scan_.successive.identical);
      if (part.successive.identical_pairs == 0) part.successive.first_identical = count.first_identical;
      part.successive.identical_pairs += count.identical_pairs;
    }
  }
  const std::lock_guard<std::mutex> lock(mutex_);
  if (++done_ == chunks_) done_changed_.notify_all();
  return true;
}

const RotaryCacheScan& RotaryCacheScanner::finish() {
  while (scan_next()) {
  }
  std::unique_lock<std::mutex> lock(mutex_);
  done_changed_.wait(lock, [this] { return done_ == chunks_; });
  if (!combined_) {
    for (std::size_t k = 0; k < chunks_; ++k) {
      if (k < cos_chunks_) {
        scan_.cos_extent = combined(scan_.cos_extent, parts_[k].extent);
        add_successive_count(scan_.successive, parts_[k].successive);
      } else {
        scan_.sin_extent = combined(scan_.sin_extent, parts_[k].extent);
      }
    }
    combined_ = true;
  }
  return scan_;
}

RotaryCacheScan scan_rotary_cache(const Table& cos, const Table& sin) {
  RotaryCacheScanner scanner(cos, sin);
  return scanner.finish();
}

}  // namespace pecheck::validate
