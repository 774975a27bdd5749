// Where a panel's legend goes and how wide it is, from an upper bound on the
// width its text takes when drawn, so that the legend stays inside its panel
// (and so inside the figure's viewBox) whatever font the viewer substitutes
// for sans-serif: long series names wrap onto further lines.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace pecheck::reports::plot {

// An upper bound on the drawn width of `text` at `font_px` in DejaVu Sans or
// Liberation Sans (what Chromium and Firefox draw sans-serif with on Debian).
double text_width_bound(std::string_view text, double font_px);

// The legend's text size and its geometry (pixels, in the panel).
inline constexpr double legend_font_px = 11.0;
inline constexpr double legend_sample = 28.0;  // the sample line and marker, then the text
inline constexpr double legend_gap = 16.0;     // the frame to the sample: room for half a tick label
inline constexpr double legend_row = 16.0;     // from one series to the next
inline constexpr double legend_line = 13.0;    // from one line of a wrapped name to the next

inline constexpr double legend_column_gap = 12.0;  // between columns of a tall legend

struct LegendLayout {
  double width = 0.0;                           // gap + each column's sample and longest line; 0: no legend
  std::vector<std::vector<std::string>> lines;  // each series' name as drawn, wrapped
  std::vector<double> offsets;                  // each series' sample, right of the gap
  std::vector<double> baselines;                // each series' first line, below the legend's top
  double height = 0.0;                          // from the legend's top to below its tallest column
};

// The legend of series named `names` in a panel `panel_width` wide, with
// `height` below its top: each column at most `max_fraction` of the panel's
// width, names wrapped at spaces (a word too long for a line at any
// character), and as many columns as the entries need to fit in the height.
// Empty when there is nothing to tell apart.
LegendLayout layout_legend(const std::vector<std::string>& names, double panel_width, double height,
                           double max_fraction = 0.42);

}  // namespace pecheck::reports::plot
