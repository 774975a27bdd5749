// A rotary validation's detection and its pass over every value
// (rotary_cache_scan.hpp) on the validation's threads. With two: the scan on
// a thread of its own, which then helps the frequency fits (shared_tasks.hpp)
// while the calling thread detects; detection waits for the scan only when
// it reads the successive rows. With one: in turn, the scan when detection
// reads the successive rows or when scan() is first called (a cache that is
// no rotary cache is not scanned). The results are the same either way.
#pragma once

#include <cstdint>
#include <exception>
#include <functional>
#include <optional>

#include "pecheck/format.hpp"
#include "pecheck/rotary_convention.hpp"
#include "pecheck/table.hpp"
#include "pecheck/validate/rotary_findings.hpp"
#include "rotary_cache_scan.hpp"

namespace pecheck::validate {

class RotaryDetectionRun {
 public:
  // `threads` as RotaryValidationOptions::threads: 1 for this thread alone.
  RotaryDetectionRun(const Table& cos, const Table& sin, int threads) : cos_(cos), sin_(sin), threads_(threads) {}

  // `value_format` says the format the values carry (a pass over every
  // value of a float32 cache holding bfloat16 values): called first, on the
  // calling thread, while the scan has started beside it.
  RotaryDetection detect(const std::function<FormatId()>& value_format, const std::optional<RotaryConvention>& given,
                         std::optional<std::int64_t> first_position);
  // Rethrows the scan's exception, if it had one.
  const RotaryCacheScan& scan();

 private:
  const Table& cos_;
  const Table& sin_;
  int threads_;
  std::optional<RotaryCacheScan> scan_;
  std::exception_ptr scan_failure_;
};

}  // namespace pecheck::validate
