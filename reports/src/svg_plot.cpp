#include "pecheck/reports/svg_plot.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstddef>

#include "pecheck/reports/escape.hpp"
#include "legend_layout.hpp"
#include "plot_scale.hpp"
#include "svg_heatmap.hpp"

namespace pecheck::reports {

namespace {

using plot::coordinate;

// Okabe and Ito's palette: distinguishable with the common colour-vision
// deficiencies, and each series also gets its own marker shape.
constexpr const char* palette[] = {"#0072b2", "#d55e00", "#009e73", "#cc79a7", "#e69f00", "#56b4e9", "#000000"};
constexpr std::size_t palette_size = sizeof palette / sizeof palette[0];

constexpr double left_margin = 64.0;
constexpr double top_margin = 28.0;
constexpr double bottom_margin = 46.0;
constexpr double right_margin = 12.0;

std::string axis_title(const Axis& axis) {
  return axis.unit.empty() ? axis.label : axis.label + " (" + axis.unit + ")";
}

// Element ids must be unique on the HTML page that holds every figure.
std::string safe_id(std::string_view text) {
  std::string id;
  for (char c : text) id += std::isalnum(static_cast<unsigned char>(c)) ? c : '-';
  return id;
}

void text(std::string& out, double x, double y, std::string_view content, std::string_view attributes = {}) {
  out += "<text x=\"" + coordinate(x) + "\" y=\"" + coordinate(y) + "\"";
  if (!attributes.empty()) out += ' ' + std::string(attributes);
  out += '>' + escape_xml_text(content) + "</text>\n";
}

// A tick label: plain text, or mantissa x 10 with a raised exponent.
void tick_label(std::string& out, const plot::Tick& tick, double x, double y, std::string_view anchor) {
  out += "<text x=\"" + coordinate(x) + "\" y=\"" + coordinate(y) + "\" text-anchor=\"" + std::string(anchor) + "\">";
  if (tick.power) {
    if (!tick.label_text.empty()) out += escape_xml_text(tick.label_text) + "\u00d7";
    out += "10<tspan dy=\"-5\" font-size=\"11\">" + std::to_string(tick.exponent) + "</tspan>";
  } else {
    out += escape_xml_text(tick.label_text);
  }
  out += "</text>\n";
}

// Gridlines, ticks, tick labels and axis titles around the frame.
void draw_axes(std::string& out, const Panel& panel, const plot::Scale& x, const plot::Scale& y, double left,
               double top, double right, double bottom, double height, bool grid = true) {
  for (const plot::Tick& tick : plot::ticks(x)) {
    const std::string px = coordinate(x.to_pixel(tick.value));
    if (grid) {
      out += "<line x1=\"" + px + "\" y1=\"" + coordinate(top) + "\" x2=\"" + px + "\" y2=\"" + coordinate(bottom) +
             "\" stroke=\"" + (tick.labelled ? "#d9d9d9" : "#efefef") + "\"/>\n";
    } else {
      out += "<line x1=\"" + px + "\" y1=\"" + coordinate(bottom) + "\" x2=\"" + px + "\" y2=\"" +
             coordinate(bottom + 4.0) + "\" stroke=\"#444\"/>\n";
    }
    if (tick.labelled) tick_label(out, tick, x.to_pixel(tick.value), bottom + 15.0, "middle");
  }
  for (const plot::Tick& tick : plot::ticks(y)) {
    const std::string py = coordinate(y.to_pixel(tick.value));
    if (grid) {
      out += "<line x1=\"" + coordinate(left) + "\" y1=\"" + py + "\" x2=\"" + coordinate(right) + "\" y2=\"" + py +
             "\" stroke=\"" + (tick.labelled ? "#d9d9d9" : "#efefef") + "\"/>\n";
    } else {
      out += "<line x1=\"" + coordinate(left - 4.0) + "\" y1=\"" + py + "\" x2=\"" + coordinate(left) + "\" y2=\"" +
             py + "\" stroke=\"#444\"/>\n";
    }
    if (tick.labelled) tick_label(out, tick, left - 5.0, y.to_pixel(tick.value) + 4.0, "end");
  }
  out += "<rect x=\"" + coordinate(left) + "\" y=\"" + coordinate(top) + "\" width=\"" + coordinate(right - left) +
         "\" height=\"" + coordinate(bottom - top) + "\" fill=\"none\" stroke=\"#444\"/>\n";
  text(out, (left + right) / 2.0, height - 10.0, axis_title(panel.x), "text-anchor=\"middle\"");
  out += "<text transform=\"translate(14," + coordinate((top + bottom) / 2.0) +
         ") rotate(-90)\" text-anchor=\"middle\">" + escape_xml_text(axis_title(panel.y)) + "</text>\n";
  text(out, left, 17.0, panel.title, "font-weight=\"bold\" font-size=\"12\"");
}

// A marker centred at (x, y) as path commands: circle, square, triangle, diamond.
std::string marker(std::size_t shape, double x, double y) {
  const double r = 2.6;
  switch (shape % 4) {
    case 0:
      return "M" + coordinate(x - r) + " " + coordinate(y) + "a" + coordinate(r) + " " + coordinate(r) + " 0 1 0 " +
             coordinate(2 * r) + " 0a" + coordinate(r) + " " + coordinate(r) + " 0 1 0 " + coordinate(-2 * r) + " 0";
    case 1:
      return "M" + coordinate(x - r) + " " + coordinate(y - r) + "h" + coordinate(2 * r) + "v" + coordinate(2 * r) +
             "h" + coordinate(-2 * r) + "z";
    case 2:
      return "M" + coordinate(x) + " " + coordinate(y - r * 1.2) + "L" + coordinate(x + r * 1.2) + " " +
             coordinate(y + r) + "L" + coordinate(x - r * 1.2) + " " + coordinate(y + r) + "z";
    default:
      return "M" + coordinate(x) + " " + coordinate(y - r * 1.3) + "L" + coordinate(x + r * 1.3) + " " + coordinate(y) +
             "L" + coordinate(x) + " " + coordinate(y + r * 1.3) + "L" + coordinate(x - r * 1.3) + " " + coordinate(y) +
             "z";
  }
}

bool has_line(const Series& series) { return series.style != SeriesStyle::points; }
bool has_markers(const Series& series) { return series.style != SeriesStyle::line; }

// Draws one series; returns how many of its points the axes cannot show.
std::size_t draw_series(std::string& out, const Series& series, std::size_t index, const plot::Scale& x,
                        const plot::Scale& y) {
  const char* colour = palette[index % palette_size];
  std::string line;
  std::string markers;
  std::size_t omitted = 0;
  bool pen_down = false;
  const std::size_t count = std::min(series.x.size(), series.y.size());
  for (std::size_t i = 0; i < count; ++i) {
    if (!x.drawable(series.x[i]) || !y.drawable(series.y[i])) {
      if (!std::isnan(series.y[i])) ++omitted;  // NaN is a deliberate gap
      pen_down = false;
      continue;
    }
    const double px = x.to_pixel(series.x[i]);
    const double py = y.to_pixel(series.y[i]);
    line += (pen_down ? "L" : "M") + coordinate(px) + " " + coordinate(py);
    pen_down = true;
    markers += marker(index, px, py);
  }
  if (has_line(series) && !line.empty()) {
    out += "<path d=\"" + line + "\" fill=\"none\" stroke=\"" + colour + "\" stroke-width=\"1.6\"" +
           (series.dashed ? " stroke-dasharray=\"6 4\"" : "") + "/>\n";
  }
  if (has_markers(series) && !markers.empty()) {
    out += "<path d=\"" + markers + "\" fill=\"" + colour + "\" fill-opacity=\"0.75\"/>\n";
  }
  return omitted;
}

// Beside the plot, inside the panel: long names wrap (legend_layout.hpp).
plot::LegendLayout legend_of(const Panel& panel, PlotSize size) {
  std::vector<std::string> names;
  for (const Series& series : panel.series) names.push_back(series.name);
  return plot::layout_legend(names, size.width, size.height - top_margin - 4.0);
}

void draw_legend(std::string& out, const Panel& panel, const plot::LegendLayout& legend, double left, double top) {
  out += "<g class=\"legend\">\n";
  for (std::size_t i = 0; i < panel.series.size(); ++i) {
    const Series& series = panel.series[i];
    const double baseline = top + legend.baselines[i];
    const double y = baseline - 4.0;  // the sample's centre, level with the text's middle
    const double x = left + legend.offsets[i];
    const char* colour = palette[i % palette_size];
    if (has_line(series)) {
      out += "<line x1=\"" + coordinate(x) + "\" y1=\"" + coordinate(y) + "\" x2=\"" + coordinate(x + 22.0) +
             "\" y2=\"" + coordinate(y) + "\" stroke=\"" + colour + "\" stroke-width=\"1.6\"" +
             (series.dashed ? " stroke-dasharray=\"6 4\"" : "") + "/>\n";
    }
    if (has_markers(series)) {
      out += "<path d=\"" + marker(i, x + 11.0, y) + "\" fill=\"" + colour + "\"/>\n";
    }
    const std::vector<std::string>& lines = legend.lines[i];
    for (std::size_t k = 0; k < lines.size(); ++k) {
      text(out, x + plot::legend_sample, baseline + plot::legend_line * static_cast<double>(k), lines[k]);
    }
  }
  out += "</g>\n";
}

std::string series_panel(const Panel& panel, const std::string& id, PlotSize size) {
  std::vector<double> xs, ys;
  for (const Series& series : panel.series) {
    xs.insert(xs.end(), series.x.begin(), series.x.end());
    ys.insert(ys.end(), series.y.begin(), series.y.end());
  }
  const plot::LegendLayout legend = legend_of(panel, size);
  const double left = left_margin, top = top_margin;
  const double right = size.width - right_margin - legend.width, bottom = size.height - bottom_margin;
  plot::Scale x{panel.x.scale, 0, 1, left, right};
  plot::Scale y{panel.y.scale, 0, 1, bottom, top};
  plot::axis_range(panel.x, xs, x.low, x.high);
  plot::axis_range(panel.y, ys, y.low, y.high);

  std::string out;
  draw_axes(out, panel, x, y, left, top, right, bottom, size.height);
  out += "<clipPath id=\"" + id + "\"><rect x=\"" + coordinate(left) + "\" y=\"" + coordinate(top) + "\" width=\"" +
         coordinate(right - left) + "\" height=\"" + coordinate(bottom - top) + "\"/></clipPath>\n";
  out += "<g clip-path=\"url(#" + id + ")\">\n";
  std::size_t omitted = 0;
  for (std::size_t i = 0; i < panel.series.size(); ++i) omitted += draw_series(out, panel.series[i], i, x, y);
  out += "</g>\n";
  if (omitted > 0) {
    // Said, not hidden: zeros have no place on a logarithmic axis.
    text(
        out, left + 4.0, bottom - 5.0,
        std::to_string(omitted) + (omitted == 1 ? " point" : " points") + " not drawn (zero or negative on a log axis)",
        "font-size=\"11\" fill=\"#555\"");
  }
  if (legend.width > 0.0) draw_legend(out, panel, legend, right + plot::legend_gap, top);
  return out;
}

std::string panel_body(const Panel& panel, const std::string& id, PlotSize size) {
  std::string out = "<rect width=\"" + std::to_string(size.width) + "\" height=\"" + std::to_string(size.height) +
                    "\" fill=\"#fff\"/>\n";
  if (panel.heatmap) {
    const double left = left_margin, top = top_margin;
    const double right = size.width - right_margin - plot::colour_bar_width, bottom = size.height - bottom_margin;
    const Heatmap& map = *panel.heatmap;
    plot::Scale x{AxisScale::linear, map.col_origin, map.col_origin + static_cast<double>(map.cols), left, right};
    plot::Scale y{AxisScale::linear, map.row_origin, map.row_origin + static_cast<double>(map.rows), top, bottom};
    plot::draw_heatmap_cells(out, map, left, top, right, bottom);
    draw_axes(out, panel, x, y, left, top, right, bottom, size.height, false);
    plot::draw_colour_bar(out, map, right + 14.0, top, bottom);
    return out;
  }
  return out + series_panel(panel, id, size);
}

std::string svg_open(int width, int height) {
  const std::string w = std::to_string(width), h = std::to_string(height);
  return "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" + w + "\" height=\"" + h + "\" viewBox=\"0 0 " + w + " " +
         h + "\" font-family=\"sans-serif\" font-size=\"11\" role=\"img\">\n";
}

}  // namespace

std::string render_panel_svg(const Panel& panel, std::string_view id_prefix, PlotSize size) {
  return svg_open(size.width, size.height) + panel_body(panel, "clip-" + safe_id(id_prefix), size) + "</svg>\n";
}

std::string render_figure_svg(const Figure& figure, int columns) {
  const int count = static_cast<int>(figure.panels.size());
  const PlotSize panel_size = count == 1 ? PlotSize{760, 400} : PlotSize{};
  const int across = std::max(1, std::min(columns, count));
  const int down = std::max(1, (count + across - 1) / across);
  std::string out = svg_open(across * panel_size.width, down * panel_size.height);
  out += "<title>" + escape_xml_text(figure.title) + "</title>\n";
  for (int i = 0; i < count; ++i) {
    const int px = (i % across) * panel_size.width, py = (i / across) * panel_size.height;
    out += "<g transform=\"translate(" + std::to_string(px) + "," + std::to_string(py) + ")\">\n";
    out += panel_body(figure.panels[static_cast<std::size_t>(i)],
                      "clip-" + safe_id(figure.id) + "-" + std::to_string(i), panel_size);
    out += "</g>\n";
  }
  return out + "</svg>\n";
}

std::string standalone_svg(const Figure& figure) {
  return "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n" + render_figure_svg(figure);
}

}  // namespace pecheck::reports
