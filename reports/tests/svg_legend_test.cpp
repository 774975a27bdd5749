// Every legend lies inside its panel, and so inside the figure's viewBox:
// each of its texts measured with the width bound of the fonts a viewer draws
// sans-serif with (legend_layout.hpp), each sample line by its ends. Issue 29:
// a legend name of Figure 8 ran past its panel and was cut off by the next.
#include <gtest/gtest.h>

#include <cstdio>
#include <set>
#include <string>

#include "../src/legend_layout.hpp"
#include "pecheck/reports/svg_plot.hpp"
#include "support/sample_report.hpp"
#include "support/xml_parse.hpp"

namespace pecheck::reports {
namespace {

using testing::XmlElement;

// DejaVu Sans's ascent and descent (hhea: 1901 and 483 of 2048 units per em):
// a line of text reaches this far above and below its baseline.
constexpr double ascent = 1901.0 / 2048.0 * plot::legend_font_px;
constexpr double descent = 483.0 / 2048.0 * plot::legend_font_px;

struct Box {
  double left, top, right, bottom;
};

double number(const XmlElement& element, const char* name) {
  const std::string* value = element.attribute(name);
  return value == nullptr ? 0.0 : std::stod(*value);
}

// Collects each legend element's box in figure coordinates, following the
// panels' translate(x,y) groups; `panel` is the cell the element must stay in.
void legend_boxes(const XmlElement& element, double dx, double dy, const Box& panel, bool in_legend,
                  std::vector<std::pair<Box, Box>>& out, std::vector<std::string>& what) {
  double x = dx, y = dy;
  Box cell = panel;
  if (const std::string* transform = element.attribute("transform"); transform && element.name == "g") {
    double tx = 0, ty = 0;
    if (std::sscanf(transform->c_str(), "translate(%lf,%lf)", &tx, &ty) == 2) {
      x += tx;
      y += ty;
      for (const XmlElement& child : element.children) {
        if (child.name == "rect" && child.attribute("fill") && *child.attribute("fill") == "#fff") {
          cell = {x, y, x + number(child, "width"), y + number(child, "height")};  // the panel's background
        }
      }
    }
  }
  const bool legend = in_legend || (element.attribute("class") && *element.attribute("class") == "legend");
  if (legend && element.name == "text") {
    const double left = x + number(element, "x"), baseline = y + number(element, "y");
    out.push_back({{left, baseline - ascent, left + plot::text_width_bound(element.all_text(), plot::legend_font_px),
                    baseline + descent},
                   cell});
    what.push_back(element.all_text());
  }
  if (legend && element.name == "line") {
    out.push_back({{x + number(element, "x1"), y + number(element, "y1"), x + number(element, "x2"),
                    y + number(element, "y2")},
                   cell});
    what.push_back("the sample line");
  }
  for (const XmlElement& child : element.children) legend_boxes(child, x, y, cell, legend, out, what);
}

// The number of legend elements checked (so a test cannot pass on none).
std::size_t expect_legends_inside(const std::string& svg_text) {
  const XmlElement svg = testing::parse_xml(svg_text);
  const Box view{0, 0, number(svg, "width"), number(svg, "height")};
  EXPECT_EQ(*svg.attribute("viewBox"), "0 0 " + *svg.attribute("width") + " " + *svg.attribute("height"));
  std::vector<std::pair<Box, Box>> boxes;
  std::vector<std::string> what;
  legend_boxes(svg, 0, 0, view, false, boxes, what);
  for (std::size_t i = 0; i < boxes.size(); ++i) {
    const auto& [box, cell] = boxes[i];
    EXPECT_GE(box.left, cell.left) << what[i];
    EXPECT_GE(box.top, cell.top) << what[i];
    EXPECT_LE(box.right, cell.right) << what[i] << " ends at " << box.right << ", its panel at " << cell.right;
    EXPECT_LE(box.bottom, cell.bottom) << what[i] << " ends at " << box.bottom << ", its panel at " << cell.bottom;
    EXPECT_GE(box.left, view.left) << what[i];
    EXPECT_LE(box.right, view.right) << what[i];
    EXPECT_LE(box.bottom, view.bottom) << what[i];
  }
  return boxes.size();
}

Panel panel_with(const std::vector<std::string>& names) {
  Panel panel;
  panel.title = "first-layer logit variance (mean over draws)";
  panel.x = {"d", "d_model", AxisScale::linear, std::nullopt, std::nullopt};
  panel.y = {"first-layer logit variance", "", AxisScale::linear, std::nullopt, std::nullopt};
  for (const std::string& name : names) panel.series.push_back({name, SeriesStyle::line_and_points, {64, 512, 4096}, {2.1, 2.2, 2.1}, false});
  return panel;
}

// Figure 8's names as the report wrote them: the third ran 30 px past its panel.
const std::vector<std::string> figure_8_names = {"float32, s = sqrt(d)", "float32, s = 1",
                                                 "float32, LayerNorm before attention, s = sqrt(d)"};

TEST(SvgLegend, figure8sLegendStaysInsideItsPanelAndTheViewBox) {
  Figure figure;
  figure.id = "scaling-variance-first-layer-logit-decomposition";
  figure.panels = {panel_with(figure_8_names),
                   panel_with({"measured", "closed form (s^2 sigma^2 + 1/2)^2", "s = sqrt(d)"}),
                   panel_with({"token-token", "token x position", "position-position", "token-token, closed form",
                               "position-position, closed form", "s = sqrt(d)"})};
  EXPECT_GE(expect_legends_inside(render_figure_svg(figure)), 3u + 3u + 6u + 12u);
  // Two panels in a row: the right-hand one ends at the viewBox's edge.
  figure.panels.resize(2);
  EXPECT_GE(expect_legends_inside(render_figure_svg(figure)), 12u);
}

TEST(SvgLegend, aNameTooLongForOneLineWrapsAndEveryLineIsDrawn) {
  const std::string long_name = "N(0, 1), s = sqrt(d), sinusoid added (PyTorch's init with the scale), post-LN";
  const std::string svg_text = render_panel_svg(panel_with({long_name, "paper"}), "p");
  EXPECT_GE(expect_legends_inside(svg_text), 4u);
  std::string drawn;
  std::size_t lines = 0;
  const XmlElement svg = testing::parse_xml(svg_text);
  for (const XmlElement* group : svg.all("g")) {
    if (group->attribute("class") == nullptr || *group->attribute("class") != "legend") continue;
    for (const XmlElement* text : group->all("text")) {
      if (!drawn.empty()) drawn += ' ';
      drawn += text->all_text();
      ++lines;
    }
  }
  EXPECT_GE(lines, 3u) << "the long name on one line";
  EXPECT_EQ(drawn, long_name + " paper");
}

// Figure 12's legend: 26 series ran 40 px below its 400 px panel in one column.
TEST(SvgLegend, aLegendTallerThanItsPanelTakesMoreColumns) {
  std::vector<std::string> names;
  for (const char* model : {"llama2", "llama3", "llama3.1", "llama3.2", "qwen2", "mistral", "gpt-neox", "phi3",
                            "gemma", "falcon", "yarn", "deepseek-v3", "gpt-oss"}) {
    for (const char* format : {" float32", " bfloat16"}) names.push_back(std::string(model) + format);
  }
  const std::string svg_text = render_panel_svg(panel_with(names), "p", {760, 400});
  EXPECT_EQ(expect_legends_inside(svg_text), 2 * names.size());
  std::set<std::string> columns;
  const XmlElement svg = testing::parse_xml(svg_text);
  for (const XmlElement* group : svg.all("g")) {
    if (group->attribute("class") == nullptr || *group->attribute("class") != "legend") continue;
    for (const XmlElement* text : group->all("text")) columns.insert(*text->attribute("x"));
  }
  EXPECT_EQ(columns.size(), 2u);
}

TEST(SvgLegend, aWordWiderThanTheLegendIsCutNotLeftToOverflow) {
  const std::string word(120, 'W');
  EXPECT_GE(expect_legends_inside(render_panel_svg(panel_with({word, "b"}), "p")), 3u);
}

TEST(SvgLegend, sampleFiguresKeepTheirLegendsInside) {
  EXPECT_GE(expect_legends_inside(render_figure_svg(testing::sample_line_figure())), 6u);
  EXPECT_GE(expect_legends_inside(render_panel_svg(testing::sample_line_figure().panels[0], "p", {760, 400})), 6u);
}

// The bound is the wider font's advance, character by character: "m" and "W"
// are the widest letters, "i" and "l" the narrowest, and a character outside
// ASCII counts a full em and a bit.
TEST(SvgLegend, theWidthBoundAddsEachCharactersWidestAdvance) {
  EXPECT_DOUBLE_EQ(plot::text_width_bound("", 11.0), 0.0);
  EXPECT_DOUBLE_EQ(plot::text_width_bound("m", 2048.0), 1995.0);
  EXPECT_DOUBLE_EQ(plot::text_width_bound("il", 2048.0), 569.0 * 2);
  EXPECT_DOUBLE_EQ(plot::text_width_bound("\u00d7", 2048.0), 2079.0);
  EXPECT_DOUBLE_EQ(plot::text_width_bound("Wm", 11.0), (2025.0 + 1995.0) / 2048.0 * 11.0);
}

}  // namespace
}  // namespace pecheck::reports
