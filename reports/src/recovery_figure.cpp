#include "recovery_figure.hpp"

#include <cmath>
#include <string>

#include "pecheck/properties/check_ids.hpp"
#include "text_format.hpp"

namespace pecheck::reports::detail {

namespace {

// The width the sweep measured at, from its statistics' keys (0 when none).
std::int64_t swept_width(const properties::Outcome& outcome) {
  for (const properties::Statistic& statistic : outcome.statistics) {
    if (statistic.key.quantity == properties::Quantity::recovered_token_naive) return statistic.key.dim;
  }
  return 0;
}

// Each curve at both ends and at s = sqrt(d), as rows of the figure's table.
void add_numbers(Figure& figure, const properties::Series& curve, double marked) {
  for (std::size_t i = 0; i < curve.x.size(); ++i) {
    const bool end = i == 0 || i + 1 == curve.x.size();
    if (!end && std::abs(curve.x[i] - marked) > 1e-3 * marked) continue;
    figure.numbers.push_back({curve.name, "s = " + significant(curve.x[i], 4), curve.y[i], significant(curve.y[i], 3)});
  }
}

}  // namespace

std::optional<Figure> recovery_sweep_figure(const CheckResult& check) {
  const std::int64_t d = swept_width(check.outcome);
  if (check.outcome.series.empty() || d == 0) return std::nullopt;
  const double root = std::sqrt(static_cast<double>(d));
  Figure figure;
  figure.id = "scaling-variance-recovery-sweep";
  figure.title = "Token and position recovered against the embedding scale s, naive and joint decoders";
  Panel panel;
  panel.title = "share recovered, mean over draws";
  panel.x = {"s (log scale)", "", AxisScale::log, std::nullopt, std::nullopt};
  panel.y = {"recovered", "", AxisScale::linear, 0.0, 1.05};
  for (const properties::Series& curve : check.outcome.series) {
    panel.series.push_back({curve.name, SeriesStyle::line_and_points, curve.x, curve.y, false});
    add_numbers(figure, curve, root);
  }
  panel.series.push_back({"s = sqrt(d) = " + significant(root, 4), SeriesStyle::line, {root, root}, {0.0, 1.05}, true});
  figure.panels.push_back(std::move(panel));
  figure.caption = "The share of queries whose nearest (token, position) pair, nearest token row or nearest position "
                   "row is the true one, mean over draws (spreads: the check's statistics), d = " +
                   std::to_string(d) + ".";
  figure.sources = {check.id, "properties::decode (joint_decoder.hpp)"};
  return figure;
}

}  // namespace pecheck::reports::detail
