#include "rotary_cache_scan.hpp"

#include <algorithm>

namespace pecheck::validate {

namespace {

// Rows per block: about 8 KiB of values (16 float32 rows of 128), in L1
// between the two readings. Measured over a 65536 x 128 float32 cos: the
// row comparisons added 0.1 ms to the extent's 0.7 with 8 KiB blocks, 0.3 ms
// with 32 KiB ones, 0.4 ms as a pass of their own.
std::int64_t rows_in(std::int64_t cols, FormatId format, std::int64_t bytes) {
  const std::int64_t row_bytes = std::max<std::int64_t>(1, cols * storage_bytes(format));
  return std::max<std::int64_t>(1, bytes / row_bytes);
}

// Rows per chunk: about 1 MiB of values, some 50 microseconds of scanning,
// so that a thread taking chunks between other work is soon free for it,
// and a reader scanning what it has just read finds it in its cache.
constexpr std::int64_t chunk_bytes = std::int64_t{1} << 20;

}  // namespace

TableScanner::TableScanner(std::int64_t rows, std::int64_t cols, FormatId format, bool successive)
    : rows_(rows),
      cols_(cols),
      format_(format),
      count_successive_(successive),
      chunk_rows_(rows_in(cols, format, chunk_bytes)),
      parts_(static_cast<std::size_t>((rows + chunk_rows_ - 1) / chunk_rows_)) {
  if (successive) successive_ = successive_rows_to_add(rows);
}

bool TableScanner::fits(const Table& table) const {
  return table.rows == rows_ && table.cols == cols_ && table.format == format_;
}

bool TableScanner::scan_next(const Table& table, std::int64_t rows_in_place) {
  std::size_t k = next_.load();
  do {
    if (k >= parts_.size()) return false;
    // A chunk's rows are all it reads (scan_chunk): scanned as soon as they
    // are in place, while the reader's last block is still in cache.
    const std::int64_t end = std::min(rows_, static_cast<std::int64_t>(k + 1) * chunk_rows_);
    if (end > rows_in_place) return false;
  } while (!next_.compare_exchange_weak(k, k + 1));
  scan_chunk(table, k);
  const std::lock_guard<std::mutex> lock(mutex_);
  if (++done_ == parts_.size()) done_changed_.notify_all();
  return true;
}

void TableScanner::scan_chunk(const Table& table, std::size_t k) {
  Part& part = parts_[k];
  const std::int64_t first = static_cast<std::int64_t>(k) * chunk_rows_;
  const std::int64_t end = std::min(rows_, first + chunk_rows_);
  if (!count_successive_) {
    part.extent = value_extent(table, first, end);
    return;
  }
  const TableView rows = table.view();
  const std::int64_t step = rows_in(cols_, format_, std::int64_t{8} << 10);
  for (std::int64_t block = first; block < end; block += step) {
    const std::int64_t block_end = std::min(end, block + step);
    part.extent = combined(part.extent, value_extent(table, block, block_end));
    // The pairs (r, r + 1) whose second row is in the block: the chunk's
    // first pair reads the previous chunk's last row, already in place.
    // (Taking the pairs whose first row is in the chunk, a chunk waited for
    // the next reader block's first row, and its values had left the
    // reader's L2 by then: cos's pass took 3 ms against sin's 1.2 on the
    // bench's 65536 x 128 float32 cache, the read of cos the later by as much.)
    const SuccessiveCount count =
        add_successive_rows(rows, std::max<std::int64_t>(block - 1, 0), block_end - 1, successive_.identical);
    if (part.successive.identical_pairs == 0) part.successive.first_identical = count.first_identical;
    part.successive.identical_pairs += count.identical_pairs;
  }
}

void TableScanner::finish(const Table& table) {
  while (scan_next(table, rows_)) {
  }
  std::unique_lock<std::mutex> lock(mutex_);
  done_changed_.wait(lock, [this] { return done_ == parts_.size(); });
  if (combined_) return;
  for (const Part& part : parts_) {
    extent_ = combined(extent_, part.extent);
    if (count_successive_) add_successive_count(successive_, part.successive);
  }
  combined_ = true;
}

RotaryCacheScanner::RotaryCacheScanner(const Table& cos, const Table& sin)
    : RotaryCacheScanner(cos, sin, nullptr, nullptr) {}

RotaryCacheScanner::RotaryCacheScanner(const Table& cos, const Table& sin, TableScanner* cos_scanner,
                                       TableScanner* sin_scanner)
    : cos_(cos), sin_(sin), cos_scanner_(cos_scanner), sin_scanner_(sin_scanner) {
  if (cos_scanner_ == nullptr || !cos_scanner_->fits(cos)) {
    own_cos_ = std::make_unique<TableScanner>(cos.rows, cos.cols, cos.format, true);
    cos_scanner_ = own_cos_.get();
  }
  if (sin_scanner_ == nullptr || !sin_scanner_->fits(sin)) {
    own_sin_ = std::make_unique<TableScanner>(sin.rows, sin.cols, sin.format, false);
    sin_scanner_ = own_sin_.get();
  }
}

bool RotaryCacheScanner::scan_next() {
  return cos_scanner_->scan_next(cos_, cos_.rows) || sin_scanner_->scan_next(sin_, sin_.rows);
}

const RotaryCacheScan& RotaryCacheScanner::finish() {
  if (!combined_) {
    cos_scanner_->finish(cos_);
    sin_scanner_->finish(sin_);
    scan_.cos_extent = cos_scanner_->extent();
    scan_.sin_extent = sin_scanner_->extent();
    scan_.successive = cos_scanner_->successive();
    combined_ = true;
  }
  return scan_;
}

RotaryCacheScan scan_rotary_cache(const Table& cos, const Table& sin) {
  RotaryCacheScanner scanner(cos, sin);
  return scanner.finish();
}

}  // namespace pecheck::validate
