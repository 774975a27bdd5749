// The three findings, one file each, and the phrases they share for a
// measured number: a mean over draws with its spread and closed form, a
// share as a percentage. Private to reports/src.
#pragma once

#include <optional>
#include <string>

#include "pecheck/properties/check_ids.hpp"
#include "pecheck/properties/outcome.hpp"
#include "pecheck/reports/figure_data.hpp"
#include "pecheck/reports/report_model.hpp"

namespace pecheck::reports::detail {

// What every finding names: checks by id, statistics by quantity, mostly in float32.
namespace ids = properties::check_ids;
using properties::per_format;
using properties::Quantity;
inline constexpr FormatId f32 = FormatId::float32;

Finding why_scale(const Report& report, const FigureData& data);  // finding_scale.cpp
Finding does_it_cancel(const Report& report);                     // finding_attention.cpp
Finding add_or_concat(const Report& report);                      // finding_concat.cpp
// (d), only when the training family ran (pecheck report --training).
std::optional<Finding> learning(const Report& report);            // finding_training.cpp

// "0.143 ± 0.020 over 30 draws (closed form 0.14)", or "1.0012" for a
// statistic measured once (4 significant digits).
std::string measured_text(const properties::Statistic& statistic);
// The same as percentages: "44.6 ± 3.1% over 30 draws (closed form 44.4%)".
std::string measured_percent(const properties::Statistic& statistic);

}  // namespace pecheck::reports::detail
