#include "rotary_detection_run.hpp"

#include "pecheck/parallel_for.hpp"
#include "rotary_detection.hpp"
#include "shared_tasks.hpp"

namespace pecheck::validate {

RotaryDetection RotaryDetectionRun::detect(const std::function<FormatId()>& value_format,
                                           const std::optional<RotaryConvention>& given,
                                           std::optional<std::int64_t> first_position) {
  const auto successive = [this]() -> const SuccessiveRows& { return scanner_.finish().successive; };
  if (worker_count(threads_, 2) < 2) {
    return detect_rotary(cos_, sin_, value_format(), given, first_position, 1, nullptr, successive);
  }
  SharedTasks helper;
  RotaryDetection detection;
  parallel_for(2, [&](int worker) {
    if (worker == 1) {
      helper.help([this] { return scanner_.scan_next(); });
      return;
    }
    const StopOnExit release(helper);
    detection = detect_rotary(cos_, sin_, value_format(), given, first_position, 0, &helper, successive);
  });
  return detection;
}

}  // namespace pecheck::validate
