// Heatmaps for svg_plot: cells on a diverging colour scale, drawn as one
// path per colour level (adjacent cells of a row that share a level merge
// into one stroke, which keeps a 128 x 128 map small), and a colour bar.
#pragma once

#include <string>

#include "pecheck/reports/report_model.hpp"

namespace pecheck::reports::plot {

inline constexpr double colour_bar_width = 64.0;

// Row 0 at the top, column 0 at the left, filling [left, right] x [top, bottom].
void draw_heatmap_cells(std::string& out, const Heatmap& map, double left, double top, double right, double bottom);

// A vertical bar from map.low (bottom) to map.high (top), ticks at both ends
// and the middle, and the value label beside it.
void draw_colour_bar(std::string& out, const Heatmap& map, double x, double top, double bottom);

// The colour of a value, "#rrggbb", on the blue-white-red scale from low to high.
std::string colour_of(double value, double low, double high);

}  // namespace pecheck::reports::plot
