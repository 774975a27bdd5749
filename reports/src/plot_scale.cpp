#include "plot_scale.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>

#include "text_format.hpp"

namespace pecheck::reports::plot {

namespace {

// The round step (1, 2 or 5 times a power of ten) nearest above `rough`.
double nice_step(double rough) {
  const double magnitude = std::pow(10.0, std::floor(std::log10(rough)));
  const double fraction = rough / magnitude;
  const double nice = fraction <= 1.0 ? 1.0 : fraction <= 2.0 ? 2.0 : fraction <= 5.0 ? 5.0 : 10.0;
  return nice * magnitude;
}

constexpr int target_tick_count = 5;

double transform(AxisScale kind, double value) { return kind == AxisScale::log ? std::log10(value) : value; }

// Plain decimal text for a value on a linear axis with ticks `step` apart.
std::string linear_label(double value, double step) {
  const int decimals = std::max(0, -static_cast<int>(std::floor(std::log10(step) + 1e-9)));
  char buffer[48];
  std::snprintf(buffer, sizeof buffer, "%.*f", decimals, value);
  std::string text = buffer;
  if (text.find_first_not_of("-0.") == std::string::npos) text = "0";  // no "-0"
  return text;
}

Tick power_tick(double value, double mantissa, int exponent, bool labelled) {
  Tick tick;
  tick.value = value;
  tick.labelled = labelled;
  // Decades from 0.01 to 10000 read better as plain numbers.
  if (exponent >= -2 && exponent <= 4) {
    tick.label_text = significant(value, 6);
  } else {
    tick.power = true;
    tick.exponent = exponent;
    tick.label_text = mantissa == 1.0 ? "" : significant(mantissa, 2);
  }
  return tick;
}

}  // namespace

double Scale::to_pixel(double value) const {
  const double from = transform(kind, low);
  const double to = transform(kind, high);
  // Values far outside a fixed range are clipped when drawn; bounding t keeps
  // the coordinates printable without changing what is visible.
  const double t = std::clamp((transform(kind, value) - from) / (to - from), -10.0, 11.0);
  return pixel_low + t * (pixel_high - pixel_low);
}

bool Scale::drawable(double value) const { return std::isfinite(value) && (kind == AxisScale::linear || value > 0.0); }

void axis_range(const Axis& axis, const std::vector<double>& values, double& low, double& high) {
  double lowest = std::numeric_limits<double>::infinity();
  double highest = -lowest;
  for (double value : values) {
    if (!std::isfinite(value) || (axis.scale == AxisScale::log && value <= 0.0)) continue;
    lowest = std::min(lowest, value);
    highest = std::max(highest, value);
  }
  if (axis.scale == AxisScale::log) {
    if (!std::isfinite(lowest)) lowest = 1.0, highest = 10.0;
    low = std::pow(10.0, std::floor(std::log10(lowest)));
    high = std::pow(10.0, std::ceil(std::log10(highest)));
    if (high <= low) high = low * 10.0;
  } else {
    if (!std::isfinite(lowest)) lowest = 0.0, highest = 1.0;
    if (highest == lowest) {
      const double spread = lowest == 0.0 ? 1.0 : std::abs(lowest) * 0.5;
      lowest -= spread;
      highest += spread;
    }
    const double step = nice_step((highest - lowest) / target_tick_count);
    low = std::floor(lowest / step) * step;
    high = std::ceil(highest / step) * step;
  }
  if (axis.min) low = *axis.min;
  if (axis.max) high = *axis.max;
  if (!(high > low)) high = axis.scale == AxisScale::log ? low * 10.0 : low + 1.0;
}

std::vector<Tick> ticks(const Scale& scale) {
  std::vector<Tick> result;
  const double slack = 1e-9;
  if (scale.kind == AxisScale::linear) {
    const double step = nice_step((scale.high - scale.low) / target_tick_count);
    const double largest = std::max(std::abs(scale.low), std::abs(scale.high));
    for (double k = std::ceil(scale.low / step - slack); k * step <= scale.high + step * slack; k += 1.0) {
      Tick tick;
      tick.value = k * step;
      // Linear axes in pecheck's figures stay well below 1e5 (ULPs, counts,
      // fractions); beyond that, exponent notation keeps the labels short.
      tick.label_text = largest < 1e5 ? linear_label(tick.value, step) : significant(tick.value, 3);
      result.push_back(tick);
    }
    return result;
  }
  const int first = static_cast<int>(std::floor(std::log10(scale.low) + slack));
  const int last = static_cast<int>(std::ceil(std::log10(scale.high) - slack));
  const int decades = last - first;
  const int stride = std::max(1, (decades + 7) / 8);  // at most about eight labelled decades
  for (int exponent = first; exponent <= last; ++exponent) {
    const double decade = std::pow(10.0, exponent);
    if (decade >= scale.low * (1 - slack) && decade <= scale.high * (1 + slack)) {
      result.push_back(power_tick(decade, 1.0, exponent, (exponent - first) % stride == 0));
    }
    if (decades > 6) continue;
    for (int mantissa = 2; mantissa <= 9; ++mantissa) {
      const double value = mantissa * decade;
      if (value < scale.low * (1 - slack) || value > scale.high * (1 + slack)) continue;
      // On short axes the 2s and 5s are labelled too.
      result.push_back(power_tick(value, mantissa, exponent, decades <= 2 && (mantissa == 2 || mantissa == 5)));
    }
  }
  return result;
}

std::string coordinate(double value) {
  char buffer[48];
  std::snprintf(buffer, sizeof buffer, "%.2f", value);
  std::string text = buffer;
  while (text.back() == '0') text.pop_back();
  if (text.back() == '.') text.pop_back();
  if (text == "-0") text = "0";
  return text;
}

}  // namespace pecheck::reports::plot
