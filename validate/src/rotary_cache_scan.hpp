// The passes a rotary validation makes over every value of the cache, made
// as one: each table's extent (the value hazards, rotary_value_hazards.hpp)
// and cos's successive identical rows (the position steps,
// position_steps.hpp). cos is read a block of rows at a time, the extent
// first, so that the row comparisons find the block in cache: apart, they
// touched a new cache line per row from memory.
//
// Each table's pass is cut into chunks of rows that threads take in order
// (rotary_detection_run.hpp: a thread with nothing else to do scans, the
// detecting thread joins in when it needs the result; rotary_read_pass.hpp:
// the thread reading a file scans each chunk once its rows are in place);
// each chunk's parts are kept apart and combined in row order, so the result
// is the same whoever scanned what, and when.
#pragma once

#include <atomic>
#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <mutex>
#include <vector>

#include "pecheck/table.hpp"
#include "position_steps.hpp"
#include "rotary_value_hazards.hpp"

namespace pecheck::validate {

struct RotaryCacheScan {
  ValueExtent cos_extent;
  ValueExtent sin_extent;
  SuccessiveRows successive;  // of cos
};

// One table's share of the pass: its extent and, for cos, its successive
// identical rows. Sized by the table's shape; the table itself is handed to
// each call (the one the reader fills, later the same values validated).
class TableScanner {
 public:
  TableScanner(std::int64_t rows, std::int64_t cols, FormatId format, bool successive);

  // Whether this scanner was sized for `table`.
  bool fits(const Table& table) const;
  // Scans the next chunk no thread has taken, when its rows are among the
  // table's first `rows_in_place` (its successive pairs are those whose
  // second row it holds); false when there is none.
  bool scan_next(const Table& table, std::int64_t rows_in_place);
  // Scans the chunks left, waits for those other threads are scanning, and
  // combines the parts (once). Called by one thread.
  void finish(const Table& table);

  const ValueExtent& extent() const { return extent_; }
  // Meaningful when constructed with `successive`.
  const SuccessiveRows& successive() const { return successive_; }

 private:
  struct Part {
    ValueExtent extent;
    SuccessiveCount successive;
  };
  void scan_chunk(const Table& table, std::size_t k);

  std::int64_t rows_;
  std::int64_t cols_;
  FormatId format_;
  bool count_successive_;
  std::int64_t chunk_rows_;
  std::vector<Part> parts_;
  std::atomic<std::size_t> next_{0};
  std::mutex mutex_;
  std::condition_variable done_changed_;
  std::size_t done_ = 0;
  bool combined_ = false;
  ValueExtent extent_;
  SuccessiveRows successive_;
};

class RotaryCacheScanner {
 public:
  // Scans cos and sin itself.
  RotaryCacheScanner(const Table& cos, const Table& sin);
  // Goes on from scanners already fed (rotary_read_pass.hpp), each used
  // when it was sized for its table, else replaced by a new one.
  RotaryCacheScanner(const Table& cos, const Table& sin, TableScanner* cos_scanner, TableScanner* sin_scanner);

  // Scans the next chunk no thread has taken; false when none is left.
  bool scan_next();
  // Scans the chunks left, waits for those other threads are scanning, and
  // returns the whole pass. Called by one thread.
  const RotaryCacheScan& finish();

 private:
  const Table& cos_;
  const Table& sin_;
  std::unique_ptr<TableScanner> own_cos_;
  std::unique_ptr<TableScanner> own_sin_;
  TableScanner* cos_scanner_;
  TableScanner* sin_scanner_;
  RotaryCacheScan scan_;
  bool combined_ = false;
};

// The whole pass on the calling thread.
RotaryCacheScan scan_rotary_cache(const Table& cos, const Table& sin);

}  // namespace pecheck::validate
