#include "svg_heatmap.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>

#include "pecheck/reports/escape.hpp"
#include "plot_scale.hpp"
#include "text_format.hpp"

namespace pecheck::reports::plot {

namespace {

// 33 levels: an odd count puts zero on a level of its own (white), and each
// level spans 1/16 of [-1, 1], finer than the eye separates on this scale.
constexpr int level_count = 33;
constexpr int nan_level = -1;

struct Rgb {
  double r, g, b;
};

// ColorBrewer's RdBu end points and a light grey middle.
constexpr Rgb low_colour{33, 102, 172};
constexpr Rgb middle_colour{247, 247, 247};
constexpr Rgb high_colour{178, 24, 43};

std::string hex(const Rgb& colour) {
  char buffer[8];
  std::snprintf(buffer, sizeof buffer, "#%02x%02x%02x", static_cast<unsigned>(std::lround(colour.r)),
                static_cast<unsigned>(std::lround(colour.g)), static_cast<unsigned>(std::lround(colour.b)));
  return buffer;
}

Rgb mix(const Rgb& a, const Rgb& b, double t) {
  return {a.r + (b.r - a.r) * t, a.g + (b.g - a.g) * t, a.b + (b.b - a.b) * t};
}

std::string level_colour(int level) {
  const double t = static_cast<double>(level) / (level_count - 1);
  return hex(t < 0.5 ? mix(low_colour, middle_colour, t * 2.0) : mix(middle_colour, high_colour, t * 2.0 - 1.0));
}

// Values beyond [low, high] take the end colours, as on any colour scale;
// the caption states the range.
int level_of(double value, double low, double high) {
  if (std::isnan(value)) return nan_level;
  const double t = std::clamp((value - low) / (high - low), 0.0, 1.0);
  return static_cast<int>(std::lround(t * (level_count - 1)));
}

}  // namespace

std::string colour_of(double value, double low, double high) {
  const int level = level_of(value, low, high);
  return level == nan_level ? "#808080" : level_colour(level);
}

void draw_heatmap_cells(std::string& out, const Heatmap& map, double left, double top, double right, double bottom) {
  if (map.rows <= 0 || map.cols <= 0) return;
  // Drawn in cell units (a cell is 1 x 1 after the transform), each run of
  // equal colour in a row as a horizontal stroke one cell thick through the
  // row's middle: integer coordinates and relative moves keep a 128 x 128 map
  // to a few hundred kilobytes.
  struct Pen {
    std::string path;
    std::int64_t row = -1;
    std::int64_t x = 0;  // where the last stroke ended
  };
  std::map<int, Pen> pens;  // ordered by level: deterministic output
  for (std::int64_t row = 0; row < map.rows; ++row) {
    std::int64_t start = 0;
    while (start < map.cols) {
      const auto value = [&](std::int64_t col) { return map.values[static_cast<std::size_t>(row * map.cols + col)]; };
      const int level = level_of(value(start), map.low, map.high);
      std::int64_t end = start + 1;
      while (end < map.cols && level_of(value(end), map.low, map.high) == level) ++end;
      Pen& pen = pens[level];
      if (pen.row == row) {
        pen.path += "m" + std::to_string(start - pen.x) + " 0";
      } else {
        pen.path += "M" + std::to_string(start) + " " + std::to_string(row) + ".5";
      }
      pen.path += "h" + std::to_string(end - start);
      pen.row = row;
      pen.x = end;
      start = end;
    }
  }
  out += "<g transform=\"translate(" + coordinate(left) + "," + coordinate(top) + ") scale(" +
         significant((right - left) / static_cast<double>(map.cols), 8) + "," +
         significant((bottom - top) / static_cast<double>(map.rows), 8) + ")\" fill=\"none\" stroke-width=\"1\">\n";
  for (const auto& [level, pen] : pens) {
    const std::string colour = level == nan_level ? "#808080" : level_colour(level);
    out += "<path d=\"" + pen.path + "\" stroke=\"" + colour + "\"/>\n";
  }
  out += "</g>\n";
}

void draw_colour_bar(std::string& out, const Heatmap& map, double x, double top, double bottom) {
  const double width = 12.0;
  const double step = (bottom - top) / level_count;
  for (int level = 0; level < level_count; ++level) {
    const double y = bottom - step * (level + 1);
    out += "<rect x=\"" + coordinate(x) + "\" y=\"" + coordinate(y) + "\" width=\"" + coordinate(width) +
           "\" height=\"" + coordinate(step + 0.5) + "\" fill=\"" + level_colour(level) + "\"/>\n";
  }
  out += "<rect x=\"" + coordinate(x) + "\" y=\"" + coordinate(top) + "\" width=\"" + coordinate(width) +
         "\" height=\"" + coordinate(bottom - top) + "\" fill=\"none\" stroke=\"#444\"/>\n";
  const double values[] = {map.low, (map.low + map.high) / 2.0, map.high};
  for (double value : values) {
    const double y = bottom - (value - map.low) / (map.high - map.low) * (bottom - top);
    out += "<text x=\"" + coordinate(x + width + 3.0) + "\" y=\"" + coordinate(y + 4.0) + "\">" +
           escape_xml_text(significant(value, 3)) + "</text>\n";
  }
  out += "<text transform=\"translate(" + coordinate(x + width + 36.0) + "," + coordinate((top + bottom) / 2.0) +
         ") rotate(90)\" text-anchor=\"middle\">" + escape_xml_text(map.value_label) + "</text>\n";
}

}  // namespace pecheck::reports::plot
