// A rotary validation's detection and its pass over every value
// (rotary_cache_scan.hpp) on the validation's threads. With two: the second
// thread scans the cache a chunk at a time and takes groups of the frequency
// fits (shared_tasks.hpp) whenever the detecting thread has started them;
// when detection reads the successive rows, the detecting thread scans what
// is left with it. With one: the whole scan when detection reads the
// successive rows or when scan() is first called. A cache that is no rotary
// cache is not scanned to the end (nothing needs it). The results are the
// same either way.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>

#include "pecheck/format.hpp"
#include "pecheck/rotary_convention.hpp"
#include "pecheck/table.hpp"
#include "pecheck/validate/rotary_findings.hpp"
#include "pecheck/validate/rotary_read_pass.hpp"
#include "rotary_cache_scan.hpp"

namespace pecheck::validate {

class RotaryDetectionRun {
 public:
  // `threads` as RotaryValidationOptions::threads: 1 for this thread alone.
  // `read_pass`: the scan made as the tables were read, gone on from (or null).
  RotaryDetectionRun(const Table& cos, const Table& sin, int threads, RotaryReadPass* read_pass = nullptr)
      : cos_(cos),
        sin_(sin),
        threads_(threads),
        scanner_(cos, sin, read_pass ? read_pass->cos_scanner() : nullptr,
                 read_pass ? read_pass->sin_scanner() : nullptr) {}

  // `value_format` says the format the values carry (a pass over every
  // value of a float32 cache holding bfloat16 values): called first, on the
  // calling thread, while the scan has started beside it.
  RotaryDetection detect(const std::function<FormatId()>& value_format, const std::optional<RotaryConvention>& given,
                         std::optional<std::int64_t> first_position);
  // The whole scan (what detection left of it scanned now, on this thread).
  const RotaryCacheScan& scan() { return scanner_.finish(); }

 private:
  const Table& cos_;
  const Table& sin_;
  int threads_;
  RotaryCacheScanner scanner_;
};

}  // namespace pecheck::validate
