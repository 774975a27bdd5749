#include "rotary_custom_rule.hpp"

#include <algorithm>
#include <cmath>
#include <sstream>

namespace pecheck::validate {

RotaryConvention fitted_rule(const RotaryDetection& detection) {
  RotaryConvention c;
  c.name = "custom rule";
  c.source = "the frequencies fitted to the cache (no preset or config rule explains them)";
  c.layout = detection.layout;
  c.head_dim = 2 * detection.frequencies;
  c.scaling.kind = RotaryScalingKind::fitted;
  for (std::size_t i = 0; i < detection.inv_freq.size(); ++i) {
    const double w = detection.inv_freq[i];
    const double sigma = detection.inv_freq_sigma[i];
    double held = 0.0;
    if (std::isfinite(w) && w > 3.0 * sigma) {
      const double single = static_cast<float>(w);
      held = std::fabs(single - w) <= 3.0 * sigma ? single : w;
    }
    c.scaling.inv_freq.push_back(std::min(held, 3.141592653589793));
  }
  return c;
}

std::string ladder_text(const RotaryConvention& fitted) {
  const std::vector<double>& w = fitted.scaling.inv_freq;
  std::ostringstream out;
  out.precision(6);
  out << "inv_freq";
  for (std::size_t i = 0; i < w.size(); ++i) out << (i ? ", " : " ") << w[i];
  out << " (" << std::count(w.begin(), w.end(), 0.0) << " of " << w.size() << " pairs at frequency 0)";
  return out.str();
}

}  // namespace pecheck::validate
