// The figures' curves that checks measured, read from their Outcomes by typed
// key: reports render what checks measured and compute nothing themselves.
#include <algorithm>

#include "pecheck/properties/check_ids.hpp"
#include "pecheck/reports/figure_data.hpp"

namespace pecheck::reports {

namespace {

const properties::Outcome* outcome_of(const std::vector<CheckResult>& checks, std::string_view id) {
  const auto found = std::find_if(checks.begin(), checks.end(), [id](const CheckResult& c) { return c.id == id; });
  return found == checks.end() ? nullptr : &found->outcome;
}

// scaling-variance/energy-ratio's width sweep: float32 ratios keyed by d.
std::optional<EnergyRatioCurve> energy_curve(const properties::Outcome& outcome) {
  EnergyRatioCurve curve;
  for (const properties::Statistic& s : outcome.statistics) {
    if (s.key.quantity != properties::Quantity::energy_ratio_scaled_at_width) continue;
    properties::StatisticKey unscaled = s.key;
    unscaled.quantity = properties::Quantity::energy_ratio_unscaled_at_width;
    const properties::Statistic* without = properties::find_statistic(outcome, unscaled);
    if (without == nullptr) continue;
    curve.dims.push_back(static_cast<double>(s.key.dim));
    curve.with_scale.push_back(s.value);
    curve.without_scale.push_back(without->value);
  }
  if (curve.dims.empty()) return std::nullopt;
  return curve;
}

// encoding-bounds/constant-columns-exact: counts keyed by format and P.
std::optional<SlowColumnCurve> constant_column_curve(const properties::Outcome& outcome) {
  SlowColumnCurve curve;
  for (FormatId format : {FormatId::float32, FormatId::float16, FormatId::bfloat16}) {
    std::vector<double> ends;
    std::vector<double> counts;
    for (const properties::Statistic& s : outcome.statistics) {
      if (s.key.quantity != properties::Quantity::constant_columns || s.key.format != format) continue;
      curve.convention = s.key.convention;
      curve.dim = s.key.dim;
      ends.push_back(static_cast<double>(s.key.positions));
      counts.push_back(s.value);
    }
    if (ends.empty()) continue;
    if (!curve.range_ends.empty() && curve.range_ends != ends) continue;  // every format over the same ranges
    curve.range_ends = ends;
    curve.formats.push_back(format);
    curve.counts.push_back(std::move(counts));
  }
  if (curve.formats.empty()) return std::nullopt;
  return curve;
}

}  // namespace

void add_check_curves(FigureData& data, const std::vector<CheckResult>& checks) {
  if (const properties::Outcome* energy = outcome_of(checks, properties::check_ids::energy_ratio)) {
    data.energy = energy_curve(*energy);
  }
  if (const properties::Outcome* columns = outcome_of(checks, properties::check_ids::constant_columns_exact)) {
    data.slow_columns = constant_column_curve(*columns);
  }
}

}  // namespace pecheck::reports
