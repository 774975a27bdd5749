#include "series_figure.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "text_format.hpp"

namespace pecheck::reports::detail {

namespace {

Axis axis(std::string label) { return {std::move(label), "", AxisScale::linear, std::nullopt, std::nullopt}; }

// A figure id from a check id: "scaling-variance/token-recoverability" -> "scaling-variance-token-recoverability".
std::string figure_id(std::string_view check_id) {
  std::string id;
  for (char c : check_id) {
    const bool keep = (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9');
    id += keep ? c : (c >= 'A' && c <= 'Z') ? static_cast<char>(c - 'A' + 'a') : '-';
  }
  return id;
}

// An axis's quantity for a table row: its label up to the first " (" or
// ", " ("a" for "a, with scale s = d^a (...)", "d" for "d (d_model)").
std::string symbol(const std::string& label) {
  const std::size_t end = std::min(label.find(" ("), label.find(", "));
  return label.substr(0, end);
}

// More than six curves (a rotary cache per preset and format, a learning
// curve per configuration) would make the table longer than the figure:
// then it keeps, at the last column, the curves with the largest and the
// smallest value, each with both its ends.
void keep_extremes(std::vector<FigureNumber>& numbers) {
  std::vector<std::string> labels;
  for (const FigureNumber& n : numbers) {
    if (std::find(labels.begin(), labels.end(), n.label) == labels.end()) labels.push_back(n.label);
  }
  if (labels.size() <= 6) return;
  const std::string last = numbers.back().column;
  const FigureNumber *high = nullptr, *low = nullptr;
  for (const FigureNumber& n : numbers) {
    if (n.column != last || std::isnan(n.value)) continue;
    if (high == nullptr || n.value > high->value) high = &n;
    if (low == nullptr || n.value < low->value) low = &n;
  }
  if (high == nullptr) return;
  const std::string top = high->label, bottom = low->label;
  std::vector<FigureNumber> kept;
  for (const FigureNumber& n : numbers) {
    if (n.label == top) kept.push_back({n.label + " (largest of " + std::to_string(labels.size()) + ")", n.column,
                                        n.value, n.text});
  }
  for (const FigureNumber& n : numbers) {
    if (n.label == bottom && bottom != top)
      kept.push_back({n.label + " (smallest of " + std::to_string(labels.size()) + ")", n.column, n.value, n.text});
  }
  numbers = std::move(kept);
}

// Captions stay within three lines at 1400 px: the checker's budget for a
// title and caption together (reports/tests/check_report_files.py).
constexpr std::size_t caption_characters = 360;

// A claim as a caption: whole when it fits beside the title, else cut at its
// last clause boundary that fits, pointing to the whole claim under Checks.
std::string claim_caption(const std::string& claim, const std::string& title) {
  if (title.size() + claim.size() <= caption_characters) return claim;
  const std::string tail = "; the whole claim is under Checks.";
  const std::size_t room = caption_characters - title.size() - tail.size();
  for (const char* boundary : {"; ", ", "}) {
    const std::size_t cut = claim.rfind(boundary, room);
    if (cut != std::string::npos && cut > room / 2) return claim.substr(0, cut) + tail;
  }
  return claim.substr(0, claim.rfind(' ', room)) + " ..." + tail;
}

// Log axes where the values are positive and span three decades or more.
AxisScale scale_for(const std::vector<double>& values) {
  double low = std::numeric_limits<double>::infinity(), high = 0.0;
  for (double v : values) {
    if (!(v > 0.0) || !std::isfinite(v)) return AxisScale::linear;
    low = std::min(low, v);
    high = std::max(high, v);
  }
  return !values.empty() && high >= 1000.0 * low ? AxisScale::log : AxisScale::linear;
}

}  // namespace

// The curves a check traced (Outcome::series), one panel per quantity
// plotted: the token-recoverability rate against the scale, the cosines
// against d, the encoding's variance per column.
std::optional<Figure> series_figure(const CheckResult& check) {
  if (check.outcome.series.empty()) return std::nullopt;
  Figure figure;
  figure.id = figure_id(check.id);
  figure.title = check.id;
  // The first panel's curves go into the table at both ends of the x axis (a
  // row per curve, a column per end); keep_extremes() trims many curves.
  for (const properties::Series& curve : check.outcome.series) {
    auto panel = std::find_if(figure.panels.begin(), figure.panels.end(),
                              [&](const Panel& p) { return p.y.label == curve.y_label && p.x.label == curve.x_label; });
    if (panel == figure.panels.end()) {
      figure.panels.push_back({});
      panel = figure.panels.end() - 1;
      panel->title = curve.y_label;
      panel->x = axis(curve.x_label);
      panel->y = axis(curve.y_label);
    }
    const bool bound = curve.name.size() >= 5 && curve.name.compare(curve.name.size() - 5, 5, "bound") == 0;
    // Markers help on a few points and hide the curve on many (a value per column).
    const SeriesStyle style =
        bound || curve.marks_x || curve.x.size() > 64 ? SeriesStyle::line : SeriesStyle::line_and_points;
    panel->series.push_back({curve.name, style, curve.x, curve.y, bound || curve.marks_x});
    if (!curve.x.empty() && panel == figure.panels.begin() && !curve.marks_x) {
      for (std::size_t i : {std::size_t{0}, curve.x.size() - 1}) {
        if (i == 0 && curve.x.size() == 1) continue;
        figure.numbers.push_back({curve.name, symbol(curve.x_label) + " = " + significant(curve.x[i], 4), curve.y[i],
                                  significant(curve.y[i], 4)});
      }
    }
  }
  for (Panel& panel : figure.panels) {
    std::vector<double> xs, ys;
    for (const Series& series : panel.series) {
      xs.insert(xs.end(), series.x.begin(), series.x.end());
      ys.insert(ys.end(), series.y.begin(), series.y.end());
    }
    panel.x.scale = scale_for(xs);
    panel.y.scale = scale_for(ys);
  }
  keep_extremes(figure.numbers);
  // The claim alone: the check's message and statistics are under Checks, the curves' ends in the table.
  figure.caption = claim_caption(check.claim, figure.title);
  figure.sources = {check.id};
  return figure;
}

}  // namespace pecheck::reports::detail
