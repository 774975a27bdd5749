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

namespace {

// The squared z-scores of the frequencies measured reliably.
std::vector<double> squared_z_scores(const RotaryDetection& detection, const std::vector<double>& inv_freq) {
  std::vector<double> squares;
  const Format& single = format_of(FormatId::float32);
  for (std::size_t i = 0; i < inv_freq.size(); ++i) {
    const double w = detection.inv_freq[i];
    const double sigma = detection.inv_freq_sigma[i];
    // Measured reliably: a frequency to 5%, or a pair that never turns where the rule turns it
    // (a custom rule's zero pairs).
    const bool measured = w > 0.0 && sigma < 0.05 * w;
    const bool still = std::fabs(w) <= 3.0 * sigma && sigma < 0.05 * inv_freq[i];
    if (!measured && !still) continue;
    // A framework's float32 pow may put inv_freq 2 ULP from the rule's
    // correctly rounded steps (rotary_comparison.cpp): no evidence of another rule.
    const double slack = 2.0 * ulp_of(DoubleDouble{inv_freq[i], 0.0}, single);
    const double z = std::max(0.0, std::fabs(w - inv_freq[i]) - slack) / sigma;
    squares.push_back(z * z);
  }
  return squares;
}

}  // namespace

std::int64_t frequency_outliers(const RotaryDetection& detection, const std::vector<double>& inv_freq) {
  if (inv_freq.size() != detection.inv_freq.size()) return static_cast<std::int64_t>(detection.inv_freq.size());
  const std::vector<double> squares = squared_z_scores(detection, inv_freq);
  return std::count_if(squares.begin(), squares.end(), [](double z2) { return z2 > frequency_misfit_limit; });
}

double frequency_misfit(const RotaryDetection& detection, const std::vector<double>& inv_freq) {
  if (inv_freq.size() != detection.inv_freq.size()) return std::numeric_limits<double>::infinity();
  std::vector<double> squares = squared_z_scores(detection, inv_freq);
  if (squares.empty()) return std::numeric_limits<double>::infinity();
  // The median: one frequency a fault or a rounding flip spoils does not decide.
  std::nth_element(squares.begin(), squares.begin() + static_cast<std::ptrdiff_t>(squares.size() / 2), squares.end());
  return squares[squares.size() / 2];
}

double rule_misfit(const RotaryDetection& detection, const RotaryConvention& convention) {
  return std::min(frequency_misfit(detection, rotary_inv_freqs(convention, std::nullopt)),
                  frequency_misfit(detection, rotary_inv_freqs(convention, FormatId::float32)));
}

std::vector<double> accumulated_inv_freqs(const RotaryConvention& convention, int neighbour) {
  const RotaryDerived d = rotary_derived(convention);
  const std::vector<double> exact = rotary_inv_freqs(convention, std::nullopt);
  const double dims = static_cast<double>(d.dims);
  float theta_scale = static_cast<float>(std::pow(static_cast<double>(static_cast<float>(d.effective_base)), -2.0 / dims));
  if (neighbour != 0) theta_scale = std::nextafter(theta_scale, neighbour < 0 ? 0.0F : 2.0F);
  std::vector<double> out;
  for (std::size_t i = 0; i < exact.size(); ++i) {
    const double plain = std::pow(d.effective_base, -2.0 * static_cast<double>(i) / dims);
    out.push_back(std::pow(theta_scale, static_cast<double>(i)) * (exact[i] / plain));
  }
  return out;
}

double accumulated_misfit(const RotaryDetection& detection, const RotaryConvention& convention) {
  double best = std::numeric_limits<double>::infinity();
  for (int neighbour : {0, -1, 1}) {
    best = std::min(best, frequency_misfit(detection, accumulated_inv_freqs(convention, neighbour)));
  }
  return best;
}

std::optional<RotaryConvention> at_cache_width(RotaryConvention convention, RotaryLayout layout,
                                               std::int64_t frequencies) {
  convention.layout = layout;
  if (convention.partial_form == PartialRotaryForm::proportional) {
    // Its cache is the whole head with a tail at frequency 0: only that width shows it.
    if (2 * frequencies != convention.head_dim) return std::nullopt;
    return convention;
  }
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
