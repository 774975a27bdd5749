#include "rotary_frequency_match.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <sstream>

#include "pecheck/convention.hpp"
#include "pecheck/ulp.hpp"
#include "rotary_dynamic_ntk.hpp"

namespace pecheck::validate {

namespace {

double round_significant(double x, int digits) {
  const double scale = std::pow(10.0, std::floor(std::log10(x)) - (digits - 1));
  return std::nearbyint(x / scale) * scale;
}

}  // namespace

double frequency_misfit(const RotaryDetection& detection, const std::vector<double>& inv_freq) {
  if (inv_freq.size() != detection.inv_freq.size()) return std::numeric_limits<double>::infinity();
  std::vector<double> squares;
  const Format& single = format_of(FormatId::float32);
  for (std::size_t i = 0; i < inv_freq.size(); ++i) {
    const double w = detection.inv_freq[i];
    const double sigma = detection.inv_freq_sigma[i];
    if (!(w > 0.0) || !(sigma < 0.05 * w)) continue;
    // A framework's float32 pow may put inv_freq 2 ULP from the rule's
    // correctly rounded steps (rotary_comparison.cpp): no evidence of another rule.
    const double slack = 2.0 * ulp_of(DoubleDouble{inv_freq[i], 0.0}, single);
    const double z = std::max(0.0, std::fabs(w - inv_freq[i]) - slack) / sigma;
    squares.push_back(z * z);
  }
  if (squares.empty()) return std::numeric_limits<double>::infinity();
  // The median: one frequency a fault or a rounding flip spoils does not decide.
  std::nth_element(squares.begin(), squares.begin() + static_cast<std::ptrdiff_t>(squares.size() / 2), squares.end());
  return squares[squares.size() / 2];
}

std::optional<RotaryConvention> at_cache_width(RotaryConvention convention, RotaryLayout layout,
                                               std::int64_t frequencies) {
  convention.layout = layout;
  convention.head_dim = 2 * frequencies;
  convention.rotary_fraction = 1.0;
  try {
    check_rotary_convention(convention);
  } catch (const ConventionError&) {
    return std::nullopt;
  }
  return convention;
}

std::vector<RotaryConvention> candidate_conventions(const RotaryDetection& detection, std::int64_t rows) {
  std::vector<RotaryConvention> candidates;
  for (const RotaryConvention& preset : rotary_presets()) {
    if (auto adapted = at_cache_width(preset, detection.layout, detection.frequencies)) {
      candidates.push_back(*adapted);
    }
  }
  if (detection.fitted_base > 1.0 && std::isfinite(detection.fitted_base)) {
    for (int digits : {1, 2, 3, 0}) {
      // A dynamic NTK base is seldom round: after the round bases, before the unrounded fit.
      if (digits == 0) {
        for (RotaryConvention& dynamic : dynamic_ntk_candidates(detection, rows)) candidates.push_back(std::move(dynamic));
      }
      RotaryConvention plain;
      plain.base = digits == 0 ? detection.fitted_base : round_significant(detection.fitted_base, digits);
      std::ostringstream name;
      name << "base " << plain.base;
      plain.name = name.str();
      plain.source = "fitted to the cache's frequencies";
      if (auto adapted = at_cache_width(plain, detection.layout, detection.frequencies)) {
        candidates.push_back(*adapted);
      }
    }
  }
  return candidates;
}

}  // namespace pecheck::validate
