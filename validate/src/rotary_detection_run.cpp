#include "rotary_detection_run.hpp"

#include <latch>

#include "pecheck/parallel_for.hpp"
#include "rotary_detection.hpp"
#include "shared_tasks.hpp"

namespace pecheck::validate {

const RotaryCacheScan& RotaryDetectionRun::scan() {
  if (scan_failure_) std::rethrow_exception(scan_failure_);
  if (!scan_) scan_ = scan_rotary_cache(cos_, sin_);
  return *scan_;
}

RotaryDetection RotaryDetectionRun::detect(const std::function<FormatId()>& value_format,
                                           const std::optional<RotaryConvention>& given,
                                           std::optional<std::int64_t> first_position) {
  if (worker_count(threads_, 2) < 2) {
    return detect_rotary(cos_, sin_, value_format(), given, first_position, 1, nullptr,
                         [this]() -> const SuccessiveRows& { return scan().successive; });
  }
  SharedTasks helper;
  std::latch scanned(1);
  RotaryDetection detection;
  parallel_for(2, [&](int worker) {
    if (worker == 1) {
      // The scan's exception is the caller's when it reads the scan, not this thread's.
      try {
        scan_ = scan_rotary_cache(cos_, sin_);
      } catch (...) {
        scan_failure_ = std::current_exception();
      }
      scanned.count_down();
      helper.help();
      return;
    }
    const CloseOnExit release(helper);
    detection = detect_rotary(cos_, sin_, value_format(), given, first_position, 0, &helper,
                              [&]() -> const SuccessiveRows& {
                                scanned.wait();
                                return scan().successive;
                              });
  });
  return detection;
}

}  // namespace pecheck::validate
