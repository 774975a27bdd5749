#include <algorithm>
#include <cmath>
#include <limits>

#include "pecheck/properties/check_ids.hpp"
#include "pecheck/reports/figure_data.hpp"
#include "recovery_figure.hpp"
#include "series_figure.hpp"
#include "text_format.hpp"

namespace pecheck::reports {

namespace {

Axis axis(std::string label, std::string unit, AxisScale scale, std::optional<double> min = std::nullopt,
          std::optional<double> max = std::nullopt) {
  return {std::move(label), std::move(unit), scale, min, max};
}

// Blocks are plotted at their last position, so the block at position 0
// still has a place on a logarithmic axis.
std::vector<double> last_positions(const std::vector<double>& starts, std::int64_t rows) {
  std::vector<double> out;
  for (double start : starts) out.push_back(start + static_cast<double>(rows - 1));
  return out;
}

// Context lengths models are commonly trained or served at, marked on the float32-angle figure.
constexpr double context_lengths[] = {512.0, 2048.0, 8192.0, 32768.0, 131072.0};
std::string context_name(double length) {
  return length < 1024.0 ? significant(length, 6) : significant(length / 1024.0, 6) + "k";
}

// The sample whose x is nearest to `target` on a log scale.
std::size_t nearest_index(const std::vector<double>& xs, double target) {
  std::size_t best = 0;
  for (std::size_t i = 1; i < xs.size(); ++i) {
    if (std::abs(std::log(xs[i] + 1) - std::log(target + 1)) <
        std::abs(std::log(xs[best] + 1) - std::log(target + 1))) {
      best = i;
    }
  }
  return best;
}

// The largest of two block maxima; NaN (a block of typed mismatches only) yields to a number.
double larger(double a, double b) { return std::isnan(a) ? b : std::isnan(b) ? a : std::max(a, b); }

// One panel, a line per format: each block's largest ULP error over every
// convention sampled at the same positions, with each budget dashed.
std::optional<Figure> ulp_figure(const FigureData& data) {
  if (data.ulp.curves.empty()) return std::nullopt;
  Figure figure;
  figure.id = "ulp-error-by-position";
  figure.title = "ULP error against position, one line per format";
  Panel panel;
  panel.title = "largest error in each block, over every convention";
  panel.x = axis("position", "", AxisScale::log);
  panel.y = axis("largest error in the block", "ULP", AxisScale::linear, 0.0);
  std::vector<std::pair<double, std::string>> budgets;  // budget, the formats it applies to
  double top = 0.0;
  for (FormatId format : {FormatId::float64, FormatId::float32, FormatId::float16, FormatId::bfloat16}) {
    const UlpCurve* first = nullptr;
    std::vector<double> worst;
    double max_ulp = 0.0;
    std::string worst_convention;
    for (const UlpCurve& curve : data.ulp.curves) {
      if (curve.format != format) continue;
      if (first == nullptr) {
        first = &curve;
        worst = curve.max_ulp;
      } else if (curve.positions == first->positions) {
        for (std::size_t i = 0; i < worst.size(); ++i) worst[i] = larger(worst[i], curve.max_ulp[i]);
      }
      if (curve.measurement.max_ulp >= max_ulp)
        max_ulp = curve.measurement.max_ulp, worst_convention = curve.convention;
    }
    if (first == nullptr) continue;
    const std::string name(format_of(format).name);
    panel.series.push_back(
        {name, SeriesStyle::line_and_points, last_positions(first->positions, data.ulp.rows_per_block), worst, false});
    const double budget = first->measurement.budget_ulp;
    const auto same =
        std::find_if(budgets.begin(), budgets.end(), [budget](const auto& b) { return b.first == budget; });
    if (same == budgets.end())
      budgets.emplace_back(budget, name);
    else
      same->second += ", " + name;
    top = std::max({top, budget, max_ulp});
    figure.numbers.push_back({name, "largest (ULP)", max_ulp, ulps(max_ulp) + " (" + worst_convention + ")"});
    figure.numbers.push_back({name, "budget (ULP)", budget, ulps(budget)});
  }
  const double x_end = static_cast<double>(max_exact_position);
  for (const auto& [budget, formats] : budgets) {
    panel.series.push_back(
        {"budget " + ulps(budget) + " ULP (" + formats + ")", SeriesStyle::line, {1.0, x_end}, {budget, budget}, true});
  }
  panel.y.max = 1.15 * top;  // room above the highest budget, so it never sits on the frame
  figure.panels.push_back(std::move(panel));
  figure.caption = "Distance to the exact value in units in the last place: each point is the largest error over "
                   "every convention in a block of " +
                   std::to_string(data.ulp.rows_per_block) + " rows (" +
                   std::to_string(data.ulp.curves.front().positions.size()) +
                   " blocks from position 0 to 2^24, d = " + std::to_string(data.ulp.dim) +
                   "), at the block's last position; dashed: the budgets.";
  figure.sources = {"the accuracy check (conformance/accuracy-by-position) against correctly rounded values"};
  return figure;
}

std::optional<Figure> angle_figure(const FigureData& data) {
  if (!data.angles || data.angles->positions.empty()) return std::nullopt;
  const AngleErrorCurve& curve = *data.angles;
  Figure figure;
  figure.id = "float32-angles";
  figure.title = "Absolute error of float32 angles (the tutorials' way) and of the subject";
  Panel panel;
  panel.title = curve.convention + ", d = " + std::to_string(curve.dim) + ", float32";
  panel.x = axis("position", "", AxisScale::log);
  panel.y = axis("largest absolute error in the block", "", AxisScale::log);
  const std::vector<double> xs = last_positions(curve.positions, data.ulp.rows_per_block);
  panel.series.push_back(
      {"p*w in float32, then sinf/cosf", SeriesStyle::line_and_points, xs, curve.float32_angles, false});
  if (!curve.subject.empty())
    panel.series.push_back({"the subject", SeriesStyle::line_and_points, xs, curve.subject, false});
  // Common context lengths as dashed verticals spanning the plotted errors (NaN breaks the line between them).
  double low = std::numeric_limits<double>::infinity(), high = 0.0;
  for (const Series& series : panel.series) {
    for (double y : series.y) {
      if (y > 0.0 && std::isfinite(y)) low = std::min(low, y), high = std::max(high, y);
    }
  }
  if (high > 0.0) {
    Series marks{"context lengths 512, 2k, 8k, 32k, 128k", SeriesStyle::line, {}, {}, true};
    for (double length : context_lengths) {
      marks.x.insert(marks.x.end(), {length, length, length});
      marks.y.insert(marks.y.end(), {low, high, std::numeric_limits<double>::quiet_NaN()});
    }
    panel.series.push_back(std::move(marks));
  }
  figure.panels.push_back(std::move(panel));
  // The table: the tutorial's error at the block nearest each common context
  // length, then both curves at the last block.
  for (double length : context_lengths) {
    const std::size_t i = nearest_index(xs, length);
    figure.numbers.push_back({"near " + context_name(length) + " (position " + significant(xs[i], 8) + ")",
                              "float32 angles", curve.float32_angles[i], scientific(curve.float32_angles[i])});
  }
  const std::size_t end = xs.size() - 1;
  const std::string last = "position " + significant(xs[end], 8);
  figure.numbers.push_back({last, "float32 angles", curve.float32_angles[end], scientific(curve.float32_angles[end])});
  if (!curve.subject.empty())
    figure.numbers.push_back({last, "the subject", curve.subject[end], scientific(curve.subject[end])});
  figure.caption =
      "The PyTorch tutorial's angle p * exp(2i * (-ln 10000 / d)) and its sin and cos, all in float32: the "
      "angle's rounding error grows with p; float32's resolution at 1 (6e-08) does not.";
  figure.sources = {
      "the accuracy check (conformance/accuracy-by-position): the tutorial's float32 arithmetic and the "
      "subject's float32 table against correctly rounded values"};
  return figure;
}

std::optional<Figure> map_figure(const FigureData& data) {
  if (data.encoding_maps.empty()) return std::nullopt;
  Figure figure;
  figure.id = "encoding-map";
  figure.title = "The encoding table: positions by columns";
  for (const auto& [name, map] : data.encoding_maps) {
    Panel panel;
    panel.title = name + ", d = " + std::to_string(map.cols);
    panel.x = axis("column", "", AxisScale::linear);
    panel.y = axis("position", "", AxisScale::linear);
    panel.heatmap = map;
    figure.panels.push_back(std::move(panel));
  }
  const Heatmap& first = data.encoding_maps.front().second;
  figure.caption = "The subject's float32 table, " + std::to_string(first.rows) + " positions (rows, from " +
                   significant(first.row_origin, 8) + " at the top) by " + std::to_string(first.cols) +
                   " columns, blue -1 to red +1. Frequencies fall from left to right (within each half in a halves "
                   "layout): the last columns barely change over these positions.";
  figure.sources = {"the subject's float32 encoding table"};
  return figure;
}

std::optional<Figure> energy_figure(const FigureData& data) {
  if (!data.energy || data.energy->dims.empty()) return std::nullopt;
  const EnergyRatioCurve& curve = *data.energy;
  Figure figure;
  figure.id = "energy-ratio";
  figure.title = "Energy of the token embedding relative to the encoding, with and without sqrt(d)";
  Panel panel;
  panel.title = "E||s e||^2 / E||PE||^2, sigma = d^-0.5";
  panel.x = axis("d (d_model)", "", AxisScale::log);
  panel.y = axis("energy ratio", "", AxisScale::log);
  std::vector<double> theory_scaled, theory_unscaled;
  for (double d : curve.dims) {
    theory_scaled.push_back(2.0);
    theory_unscaled.push_back(2.0 / d);
  }
  panel.series.push_back({"measured, s = sqrt(d)", SeriesStyle::points, curve.dims, curve.with_scale, false});
  panel.series.push_back({"measured, s = 1", SeriesStyle::points, curve.dims, curve.without_scale, false});
  panel.series.push_back({"expected 2", SeriesStyle::line, curve.dims, theory_scaled, true});
  panel.series.push_back({"expected 2/d", SeriesStyle::line, curve.dims, theory_unscaled, true});
  figure.panels.push_back(std::move(panel));
  const std::size_t at = nearest_index(curve.dims, 512.0);
  const std::string d = significant(curve.dims[at], 6);
  figure.numbers = {
      {"s = sqrt(d)", "measured, d = " + d, curve.with_scale[at], significant(curve.with_scale[at], 4)},
      {"s = sqrt(d)", "expected", theory_scaled[at], significant(theory_scaled[at], 4)},
      {"s = 1", "measured, d = " + d, curve.without_scale[at], significant(curve.without_scale[at], 4)},
      {"s = 1", "expected", theory_unscaled[at], significant(theory_unscaled[at], 4)},
  };
  figure.caption =
      "Token embeddings from N(0, 1/d) at each width d against the mean squared norm of the subject's float32 "
      "encoding rows; the energy-ratio check holds each point to its 10^-9 interval.";
  figure.sources = {std::string(properties::check_ids::energy_ratio)};
  return figure;
}

// encoding-bounds/slow-columns counts the columns constant in the subject's
// own table over positions [0, P), filed under constant-columns keys that
// carry the convention, the width and P. Those at the figure's width and
// convention are drawn as points over its curves.
void overlay_slow_column_counts(Panel& panel, const SlowColumnCurve& curve, const std::vector<CheckResult>& checks) {
  const CheckResult* check = nullptr;
  for (const CheckResult& candidate : checks) {
    if (candidate.id == properties::check_ids::slow_columns) check = &candidate;
  }
  if (check == nullptr) return;
  for (FormatId format : curve.formats) {
    const std::string name(format_of(format).name);
    Series points{name + " in the subject's table", SeriesStyle::points, {}, {}, false};
    for (const properties::Statistic& statistic : check->outcome.statistics) {
      const properties::StatisticKey& key = statistic.key;
      if (key.quantity != properties::Quantity::constant_columns || key.format != format || key.dim != curve.dim ||
          key.convention != curve.convention) {
        continue;
      }
      points.x.push_back(static_cast<double>(key.positions));
      points.y.push_back(statistic.value);
    }
    if (!points.x.empty()) panel.series.push_back(std::move(points));
  }
}

std::optional<Figure> slow_figure(const FigureData& data, const std::vector<CheckResult>& checks) {
  if (!data.slow_columns) return std::nullopt;
  const SlowColumnCurve& curve = *data.slow_columns;
  Figure figure;
  figure.id = "slow-columns";
  figure.title = "Columns that never change over a range of positions";
  Panel panel;
  panel.title = curve.convention + ", d = " + std::to_string(curve.dim) + ", correctly rounded";
  panel.x = axis("positions in the range, P (positions 0 to P-1)", "", AxisScale::log);
  panel.y = axis("columns holding one value", "", AxisScale::linear, 0.0);
  const std::size_t at = nearest_index(curve.range_ends, 512.0);
  for (std::size_t f = 0; f < curve.formats.size(); ++f) {
    const std::string name(format_of(curve.formats[f]).name);
    panel.series.push_back({name, SeriesStyle::line_and_points, curve.range_ends, curve.counts[f], false});
    figure.numbers.push_back({name, "P = " + significant(curve.range_ends[at], 6), curve.counts[f][at],
                              significant(curve.counts[f][at], 6) + " of " + std::to_string(curve.dim)});
  }
  overlay_slow_column_counts(panel, curve, checks);
  const bool overlaid = panel.series.size() > curve.formats.size();
  figure.panels.push_back(std::move(panel));
  figure.caption =
      "A column is counted when every position in [0, P) rounds to the same value in the format: it tells those "
      "positions nothing apart." +
      std::string(overlaid ? " Points: the same count in the subject's own table (encoding-bounds/slow-columns)." : "");
  figure.sources = {std::string(properties::check_ids::constant_columns_exact)};
  if (overlaid) figure.sources.push_back("encoding-bounds/slow-columns");
  return figure;
}

}  // namespace

std::vector<Figure> build_figures(const FigureData& data, const std::vector<CheckResult>& checks) {
  std::vector<Figure> figures;
  for (auto figure :
       {ulp_figure(data), angle_figure(data), map_figure(data), energy_figure(data), slow_figure(data, checks)}) {
    if (figure) figures.push_back(std::move(*figure));
  }
  for (const CheckResult& check : checks) {
    // These checks' series are drawn above, in figures of their own design.
    if (check.id == properties::check_ids::accuracy_by_position || check.id == properties::check_ids::energy_ratio ||
        check.id == properties::check_ids::constant_columns_exact) {
      continue;
    }
    // The recovery sweep has its own figure: a log axis of s with sqrt(d) marked.
    auto figure =
        check.id == properties::check_ids::recovery_sweep ? detail::recovery_sweep_figure(check) : detail::series_figure(check);
    if (figure) figures.push_back(std::move(*figure));
  }
  return figures;
}

}  // namespace pecheck::reports
