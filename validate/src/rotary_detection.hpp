// detect_rotary (pecheck/validate/rotary_validation.hpp) with its work
// shared out: the frequency fits and the norms on `threads` workers (0: one
// per machine thread; 1: the calling thread alone, the same result), and
// cos's successive rows, a pass over every row, from `successive`: called
// once, when the position steps are read, so that a caller can have made
// that pass beside the detection (rotary_cache_scan.hpp).
#pragma once

#include <cstdint>
#include <functional>
#include <optional>

#include "pecheck/format.hpp"
#include "pecheck/rotary_convention.hpp"
#include "pecheck/table.hpp"
#include "pecheck/validate/rotary_findings.hpp"
#include "position_steps.hpp"

namespace pecheck::validate {

RotaryDetection detect_rotary(const Table& cos, const Table& sin, FormatId value_format,
                              const std::optional<RotaryConvention>& given, std::optional<std::int64_t> first_position,
                              int threads, const std::function<const SuccessiveRows&()>& successive);

}  // namespace pecheck::validate
