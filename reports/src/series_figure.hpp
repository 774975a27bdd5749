// The figure of a check that traced curves (Outcome::series) and has no
// figure of its own design: one panel per quantity plotted, log axes where
// the values span three decades, the curves' ends in the table, the claim as
// the caption. Private to reports/src.
#pragma once

#include <optional>

#include "pecheck/reports/report_model.hpp"

namespace pecheck::reports::detail {

// The figure, or nothing when the check traced no series.
std::optional<Figure> series_figure(const CheckResult& check);

}  // namespace pecheck::reports::detail
