// Axis arithmetic for svg_plot: data ranges, the mapping to pixels, and
// ticks at round values (1, 2, 5 times a power of ten on linear axes,
// decades on logarithmic ones).
#pragma once

#include <string>
#include <vector>

#include "pecheck/reports/report_model.hpp"

namespace pecheck::reports::plot {

struct Tick {
  double value = 0.0;
  std::string label_text;  // plain text ("0.5", "10", "2^24" never: see label_svg)
  int exponent = 0;        // for power labels: label is mantissa x 10^exponent
  bool power = false;      // label drawn as 10 with a superscript exponent
  bool labelled = true;    // minor ticks are drawn without a label
};

struct Scale {
  AxisScale kind = AxisScale::linear;
  double low = 0.0;   // data value at pixel_low
  double high = 1.0;  // data value at pixel_high
  double pixel_low = 0.0;
  double pixel_high = 1.0;

  // Pixel coordinate of a data value; the value must be positive on a log scale.
  double to_pixel(double value) const;
  // Whether a value can be drawn at all (finite, and positive on a log scale).
  bool drawable(double value) const;
};

// The range an axis shows: its fixed limits, or the data's range widened to
// round values (linear) or whole decades (log). `values` may hold values a
// log axis cannot show; they are ignored here and counted by the caller.
void axis_range(const Axis& axis, const std::vector<double>& values, double& low, double& high);

std::vector<Tick> ticks(const Scale& scale);

// A number in SVG coordinates: two decimals, no "-0.00".
std::string coordinate(double value);

}  // namespace pecheck::reports::plot
