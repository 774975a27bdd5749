// The recovery-against-scale figure: scaling-variance/recovery-sweep's
// series on a log axis of s with s = sqrt(d) marked. Private to reports/src.
#pragma once

#include <optional>

#include "pecheck/reports/report_model.hpp"

namespace pecheck::reports::detail {

// The figure, or nothing when the check traced no series.
std::optional<Figure> recovery_sweep_figure(const CheckResult& check);

}  // namespace pecheck::reports::detail
