// The passes a rotary validation makes over every value of the cache, made
// as one: each table's extent (the value hazards, rotary_value_hazards.hpp)
// and cos's successive identical rows (the position steps,
// position_steps.hpp). cos is read a block of rows at a time, the extent
// first, so that the row comparisons find the block in cache: apart, they
// touched a new cache line per row from memory.
//
// The pass is cut into chunks of rows that threads take in any order
// (rotary_detection_run.hpp: a thread with nothing else to do scans, the
// detecting thread joins in when it needs the result); each chunk's parts
// are kept apart and combined in row order, so the result is the same
// whoever scanned what.
#pragma once

#include <atomic>
#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <mutex>
#include <optional>
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

class RotaryCacheScanner {
 public:
  RotaryCacheScanner(const Table& cos, const Table& sin);

  // Scans the next chunk no thread has taken; false when none is left.
  bool scan_next();
  // Scans the chunks left, waits for those other threads are scanning, and
  // returns the whole pass. Called by one thread.
  const RotaryCacheScan& finish();

 private:
  struct Part {
    ValueExtent extent;
    SuccessiveCount successive;
  };

  const Table& cos_;
  const Table& sin_;
  std::int64_t chunk_rows_;
  std::size_t cos_chunks_;
  std::size_t chunks_;
  std::vector<Part> parts_;
  RotaryCacheScan scan_;
  std::atomic<std::size_t> next_{0};
  std::mutex mutex_;
  std::condition_variable done_changed_;
  std::size_t done_ = 0;
  bool combined_ = false;
};

// The whole pass on the calling thread.
RotaryCacheScan scan_rotary_cache(const Table& cos, const Table& sin);

}  // namespace pecheck::validate
