#include "rotary_dynamic_ntk.hpp"

#include <cmath>
#include <limits>
#include <set>
#include <sstream>
#include <utility>

#include "rotary_frequency_match.hpp"

namespace pecheck::validate {

namespace {

// The factors tried: rope_scaling {"type": "dynamic", "factor": F} is written
// with small whole factors in practice (transformers' docs use 2.0); a cache of
// another factor still matches through the factor solved at L = rows.
constexpr double tried_factors[] = {2.0, 4.0, 8.0, 16.0};

double round_significant(double x, int digits) {
  const double scale = std::pow(10.0, std::floor(std::log10(x)) - (digits - 1));
  return std::nearbyint(x / scale) * scale;
}

std::optional<RotaryConvention> dynamic_convention(const RotaryConvention& preset, const RotaryDetection& detection,
                                                   double factor, std::int64_t length) {
  if (length <= preset.max_position) return std::nullopt;
  RotaryConvention c = preset;
  c.scaling = RotaryScaling{};
  c.scaling.kind = RotaryScalingKind::dynamic_ntk;
  c.scaling.factor = factor;
  c.scaling.original_max_position = preset.max_position;
  c.scaling.sequence_length = length;
  c.name = preset.name + " with dynamic NTK";
  c.source = preset.source +
             "; rope_scaling dynamic (transformers _compute_dynamic_ntk_parameters), factor and "
             "length read from the cache's frequencies";
  return at_cache_width(c, detection.layout, detection.frequencies);
}

}  // namespace

std::vector<RotaryConvention> dynamic_ntk_candidates(const RotaryDetection& detection, std::int64_t rows) {
  std::vector<RotaryConvention> candidates;
  if (!(detection.fitted_base > 1.0) || !std::isfinite(detection.fitted_base)) return candidates;
  const double dims = 2.0 * static_cast<double>(detection.frequencies);
  if (dims < 4.0) return candidates;               // d / (d - 2) needs d > 2
  std::set<std::pair<double, std::int64_t>> seen;  // (base, max_position) pairs already tried
  for (const RotaryConvention& preset : rotary_presets()) {
    if (preset.scaling.kind != RotaryScalingKind::none || preset.max_position < 1) continue;
    if (!seen.insert({preset.base, preset.max_position}).second) continue;
    const double x = std::pow(detection.fitted_base / preset.base, (dims - 2.0) / dims);
    if (!(x > 1.0)) continue;  // dynamic NTK only raises the base
    const auto trained = static_cast<double>(preset.max_position);
    std::vector<std::pair<double, std::int64_t>> tries;
    for (double factor : tried_factors) {
      tries.push_back({factor, static_cast<std::int64_t>(std::nearbyint(trained * (1.0 + (x - 1.0) / factor)))});
    }
    if (static_cast<double>(rows) > trained) {
      tries.push_back({round_significant((x - 1.0) / (static_cast<double>(rows) / trained - 1.0), 3), rows});
    }
    for (const auto& [factor, length] : tries) {
      // The L nearest the curve from the fitted base, or a neighbour the frequencies prefer.
      std::optional<RotaryConvention> best;
      double best_misfit = std::numeric_limits<double>::infinity();
      for (std::int64_t l : {length, length - 1, length + 1}) {
        std::optional<RotaryConvention> c = dynamic_convention(preset, detection, factor, l);
        if (!c) continue;
        const double misfit = frequency_misfit(detection, rotary_inv_freqs(*c, std::nullopt));
        if (misfit < best_misfit) best_misfit = misfit, best = std::move(c);
      }
      if (best) candidates.push_back(std::move(*best));
    }
  }
  return candidates;
}

std::int64_t dynamic_ntk_by_length(const std::vector<RotaryConvention>& alternatives, std::int64_t last_position) {
  std::int64_t found = -1;
  for (std::size_t k = 0; k < alternatives.size(); ++k) {
    if (alternatives[k].scaling.sequence_length != last_position + 1) continue;
    if (found >= 0) return -1;
    found = static_cast<std::int64_t>(k);
  }
  return found;
}

std::string dynamic_ntk_text(const RotaryConvention& c) {
  std::ostringstream out;
  out << "factor " << c.scaling.factor << ", L " << c.scaling.sequence_length << ", trained length "
      << c.scaling.original_max_position << ", base " << c.base << " (" << c.name << ")";
  return out.str();
}

}  // namespace pecheck::validate
