#include "pecheck/reports/svg_plot.hpp"

#include <cmath>
#include <set>
#include <sstream>

#include <gtest/gtest.h>

#include "../src/plot_scale.hpp"
#include "../src/svg_heatmap.hpp"
#include "support/sample_report.hpp"
#include "support/xml_parse.hpp"

namespace pecheck::reports {
namespace {

TEST(SvgPlot, figureIsWellFormedSvgWithOnePanelGroupEach) {
  const Figure figure = testing::sample_line_figure();
  const testing::XmlElement svg = testing::parse_xml(standalone_svg(figure));
  EXPECT_EQ(svg.name, "svg");
  EXPECT_EQ(*svg.attribute("xmlns"), "http://www.w3.org/2000/svg");
  EXPECT_EQ(svg.children.size(), 1 + figure.panels.size());  // <title>, then one <g> per panel
  EXPECT_EQ(svg.all("clipPath").size(), figure.panels.size());
}

TEST(SvgPlot, clipPathIdsAreUniqueAcrossPanels) {
  const testing::XmlElement svg = testing::parse_xml(render_figure_svg(testing::sample_line_figure()));
  const auto clips = svg.all("clipPath");
  ASSERT_EQ(clips.size(), 2u);
  EXPECT_NE(*clips[0]->attribute("id"), *clips[1]->attribute("id"));
}

TEST(SvgPlot, legendNamesEverySeriesAndAxesCarryUnits) {
  const Figure figure = testing::sample_line_figure();
  const std::string text = testing::parse_xml(render_panel_svg(figure.panels[0], "p")).all_text();
  for (const Series& series : figure.panels[0].series) {
    // The first word: a long name wraps onto further lines (svg_legend_test).
    EXPECT_NE(text.find(series.name.substr(0, series.name.find(' '))), std::string::npos) << series.name;
  }
  EXPECT_NE(text.find("error (ULP)"), std::string::npos);
  EXPECT_NE(text.find("position"), std::string::npos);
}

TEST(SvgPlot, pointsALogAxisCannotShowAreCountedInAVisibleNote) {
  // The third series has x = 0 on a log axis: one point not drawn (the NaN is a gap, not counted).
  const std::string text =
      testing::parse_xml(render_panel_svg(testing::sample_line_figure().panels[0], "p")).all_text();
  EXPECT_NE(text.find("1 point not drawn"), std::string::npos);
}

TEST(SvgPlot, heatmapHasOnePathPerColourLevelAndAColourBar) {
  const Figure figure = testing::sample_heatmap_figure();
  const testing::XmlElement svg = testing::parse_xml(render_panel_svg(figure.panels[0], "h"));
  std::set<std::string> colours;
  std::size_t cell_paths = 0;
  for (const testing::XmlElement* path : svg.all("path")) {
    if (const std::string* stroke = path->attribute("stroke")) {
      colours.insert(*stroke);
      ++cell_paths;
    }
  }
  EXPECT_GT(cell_paths, 1u);
  EXPECT_EQ(colours.size(), cell_paths) << "cells of one colour share one path";
  EXPECT_NE(svg.all_text().find("PE value"), std::string::npos);
}

// Reads the strokes back ("M x y.5", "m dx 0", "h n") and checks that every
// cell is painted exactly once, in the colour of its value.
TEST(SvgPlot, heatmapPaintsEveryCellOnceInItsValuesColour) {
  const Figure figure = testing::sample_heatmap_figure();
  const Heatmap& map = *figure.panels[0].heatmap;
  const testing::XmlElement svg = testing::parse_xml(render_panel_svg(figure.panels[0], "h"));
  std::vector<std::string> painted(static_cast<std::size_t>(map.rows * map.cols));
  for (const testing::XmlElement* path : svg.all("path")) {
    const std::string* stroke = path->attribute("stroke");
    if (stroke == nullptr) continue;
    std::istringstream d(*path->attribute("d"));
    long x = 0;
    double y = 0;
    char command = 0;
    while (d >> command) {
      if (command == 'M') {
        d >> x >> y;
      } else if (command == 'm') {
        long dx = 0, dy = 0;
        d >> dx >> dy;
        x += dx;
      } else if (command == 'h') {
        long n = 0;
        d >> n;
        for (long k = 0; k < n; ++k, ++x) {
          std::string& cell = painted[static_cast<std::size_t>(static_cast<long>(y) * map.cols + x)];
          EXPECT_TRUE(cell.empty()) << "painted twice";
          cell = *stroke;
        }
      } else {
        FAIL() << "unexpected path command " << command;
      }
    }
  }
  for (std::size_t i = 0; i < painted.size(); ++i) {
    EXPECT_EQ(painted[i], plot::colour_of(map.values[i], map.low, map.high)) << "cell " << i;
  }
}

TEST(SvgPlot, sameFigureSameBytes) {
  EXPECT_EQ(render_figure_svg(testing::sample_line_figure()), render_figure_svg(testing::sample_line_figure()));
}

TEST(PlotScale, linearTicksAreRoundAndCoverTheRange) {
  double low = 0, high = 0;
  plot::axis_range(Axis{"u", "", AxisScale::linear, {}, {}}, {0.03, 0.97}, low, high);
  EXPECT_LE(low, 0.03);
  EXPECT_GE(high, 0.97);
  const plot::Scale scale{AxisScale::linear, low, high, 0, 100};
  const auto ticks = plot::ticks(scale);
  ASSERT_GE(ticks.size(), 3u);
  EXPECT_EQ(ticks.front().label_text, "0");
  EXPECT_EQ(ticks.back().label_text, "1.0");
  const double step = ticks[1].value - ticks[0].value;
  EXPECT_NEAR(step, 0.2, 1e-12);
}

TEST(PlotScale, logAxisSpansWholeDecadesWithPowerLabelsForLargeExponents) {
  double low = 0, high = 0;
  plot::axis_range(Axis{"p", "", AxisScale::log, {}, {}}, {0.0, 3.0, 16777215.0}, low, high);
  EXPECT_EQ(low, 1.0);
  EXPECT_EQ(high, 1e8);
  const auto ticks = plot::ticks(plot::Scale{AxisScale::log, low, high, 0, 100});
  int labelled = 0;
  for (const plot::Tick& tick : ticks) {
    if (!tick.labelled) continue;
    ++labelled;
    if (tick.value > 1e4) {
      EXPECT_TRUE(tick.power);
    }
  }
  EXPECT_EQ(labelled, 9);  // 10^0 .. 10^8
}

TEST(PlotScale, mappingIsMonotoneAndHitsTheEnds) {
  const plot::Scale scale{AxisScale::log, 1.0, 1000.0, 50.0, 450.0};
  EXPECT_DOUBLE_EQ(scale.to_pixel(1.0), 50.0);
  EXPECT_DOUBLE_EQ(scale.to_pixel(1000.0), 450.0);
  EXPECT_NEAR(scale.to_pixel(10.0), 50.0 + 400.0 / 3.0, 1e-9);
  EXPECT_FALSE(scale.drawable(0.0));
  EXPECT_FALSE(scale.drawable(std::nan("")));
}

TEST(PlotScale, coordinatesHaveNoNegativeZeroOrTrailingZeros) {
  EXPECT_EQ(plot::coordinate(-0.001), "0");
  EXPECT_EQ(plot::coordinate(12.5), "12.5");
  EXPECT_EQ(plot::coordinate(3.0), "3");
}

}  // namespace
}  // namespace pecheck::reports
