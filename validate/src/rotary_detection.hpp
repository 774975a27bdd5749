// detect_rotary (pecheck/validate/rotary_validation.hpp) with its work
// shared out. The frequency fits: on `helper`'s two threads when given
// (shared_tasks.hpp; closed after them, its last shared work), else on
// `threads` workers (0: two where the machine runs two; 1: the calling
// thread alone); the same result either way. cos's
// successive rows, a pass over every row, from `successive`: called once,
// when the position steps are read, so that a caller can have made that
// pass beside the detection (rotary_cache_scan.hpp).
#pragma once

#include <cstdint>
#include <functional>
#include <optional>

#include "pecheck/format.hpp"
#include "pecheck/rotary_convention.hpp"
#include "pecheck/table.hpp"
#include "pecheck/validate/rotary_findings.hpp"
#include "position_steps.hpp"
#include "shared_tasks.hpp"

namespace pecheck::validate {

RotaryDetection detect_rotary(const Table& cos, const Table& sin, FormatId value_format,
                              const std::optional<RotaryConvention>& given, std::optional<std::int64_t> first_position,
                              int threads, SharedTasks* helper,
                              const std::function<const SuccessiveRows&()>& successive);

}  // namespace pecheck::validate
