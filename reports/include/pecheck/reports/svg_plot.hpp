// A small SVG plotting module for the report's figures: line and point
// series on linear or logarithmic axes with labelled ticks and units, a
// legend, and heatmaps with a colour bar. The output is plain SVG 1.1 text
// (no script, no external font or style), deterministic to the byte, that
// renders the same inline in HTML and as a standalone .svg file.
#pragma once

#include <string>
#include <string_view>

#include "pecheck/reports/report_model.hpp"

namespace pecheck::reports {

struct PlotSize {
  int width = 540;
  int height = 340;
};

// One panel as an <svg> element. `id_prefix` makes the element ids (clip
// paths) unique when several plots share one HTML page.
std::string render_panel_svg(const Panel& panel, std::string_view id_prefix, PlotSize size = {});

// A figure's panels in a grid of `columns`, as one <svg> element with the
// figure's title as its accessible <title>. Panels are PlotSize{} each, or
// wider when the figure has a single panel.
std::string render_figure_svg(const Figure& figure, int columns = 2);

// A standalone .svg document (XML declaration, then the figure).
std::string standalone_svg(const Figure& figure);

}  // namespace pecheck::reports
