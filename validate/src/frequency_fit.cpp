#include "frequency_fit.hpp"

#include <algorithm>
#include <cmath>
#include <optional>
#include <span>
#include <thread>

#include "pecheck/parallel_for.hpp"
#include "wrap_angle.hpp"

namespace pecheck::validate {

namespace {

struct LineFit {
  double slope = 0.0;
  double rms = 0.0;
  double s_tt = 0.0;
};

// Least squares of the unwrapped angles (each step taken as the predicted
// slope plus the wrapped deviation from it) against t = 0..n-1.
LineFit fit_line(const std::vector<double>& angles, std::size_t n, double predicted, std::vector<double>& buffer) {
  buffer.resize(n);  // reused from fit to fit
  const std::span<double> unwrapped(buffer.data(), n);
  unwrapped[0] = angles[0];
  for (std::size_t t = 1; t < n; ++t) {
    unwrapped[t] = unwrapped[t - 1] + predicted + wrap(angles[t] - angles[t - 1] - predicted);
  }
  const double mean_t = static_cast<double>(n - 1) / 2.0;
  double mean_y = 0.0;
  for (double y : unwrapped) mean_y += y;
  mean_y /= static_cast<double>(n);
  double s_ty = 0.0;
  double s_tt = 0.0;
  for (std::size_t t = 0; t < n; ++t) {
    const double dt = static_cast<double>(t) - mean_t;
    s_ty += dt * (unwrapped[t] - mean_y);
    s_tt += dt * dt;
  }
  LineFit fit;
  fit.slope = s_ty / s_tt;
  fit.s_tt = s_tt;
  double squares = 0.0;
  for (std::size_t t = 0; t < n; ++t) {
    const double residual = unwrapped[t] - (mean_y + fit.slope * (static_cast<double>(t) - mean_t));
    squares += residual * residual;
  }
  fit.rms = n > 2 ? std::sqrt(squares / static_cast<double>(n - 2)) : 0.0;
  return fit;
}

// 1, 2 or 3 significant digits of x.
double round_significant(double x, int digits) {
  if (!(x > 0.0) || !std::isfinite(x)) return x;
  const double scale = std::pow(10.0, std::floor(std::log10(x)) - (digits - 1));
  return std::nearbyint(x / scale) * scale;
}

bool same_rule(const FrequencyRule& a, const FrequencyRule& b) {
  if (a.kind != b.kind) return false;
  if (a.kind == FrequencyRuleKind::paper) return a.base == b.base;
  return a.min_timescale == b.min_timescale && a.max_timescale == b.max_timescale;
}

}  // namespace

namespace {

// Pairs from this many on are split between two threads: each pair's
// estimate reads only the table, and the estimates keep the pairs' order.
constexpr std::size_t parallel_pairs = 64;

// The estimate of one pair's frequency from its angles over the run, or none
// when an angle is not finite. `angles` and `buffer` are scratch space.
std::optional<FrequencyEstimate> estimate_frequency(const Table& table, const std::vector<std::int64_t>& run,
                                                    const PairColumns& pair, double angle_noise,
                                                    std::vector<double>& angles, std::vector<double>& buffer) {
  angles.resize(run.size());
  for (std::size_t t = 0; t < run.size(); ++t) {
    angles[t] = std::atan2(table.at(run[t], pair.sin_column), table.at(run[t], pair.cos_column));
  }
  if (std::any_of(angles.begin(), angles.end(), [](double a) { return !std::isfinite(a); })) return std::nullopt;
  std::size_t n = std::min<std::size_t>(16, run.size());
  LineFit fit = fit_line(angles, n, wrap(angles[1] - angles[0]), buffer);
  while (n < run.size()) {
    const std::size_t wider = std::min(run.size(), 2 * n);
    const LineFit next = fit_line(angles, wider, fit.slope, buffer);
    if (next.rms > 0.1) break;
    fit = next;
    n = wider;
  }
  FrequencyEstimate estimate;
  estimate.frequency_index = pair.frequency_index;
  estimate.w = fit.slope;
  estimate.sigma = std::max(fit.rms, angle_noise) / std::sqrt(fit.s_tt);
  return estimate;
}

}  // namespace

std::vector<FrequencyEstimate> estimate_frequencies(const Table& table, const std::vector<std::int64_t>& run,
                                                    const std::vector<PairColumns>& pairs, FormatId format) {
  std::vector<FrequencyEstimate> estimates;
  if (run.size() < 2) return estimates;
  // One ULP of a value near 1 moves the angle by about 2^(1-p) radians.
  const double angle_noise = std::ldexp(1.0, 1 - format_of(format).precision);
  std::vector<std::optional<FrequencyEstimate>> found(pairs.size());
  const int workers = pairs.size() >= parallel_pairs && std::thread::hardware_concurrency() >= 2 ? 2 : 1;
  parallel_for(workers, [&](int worker) {
    std::vector<double> angles;
    std::vector<double> buffer;
    const std::size_t begin = pairs.size() * static_cast<std::size_t>(worker) / static_cast<std::size_t>(workers);
    const std::size_t end = pairs.size() * static_cast<std::size_t>(worker + 1) / static_cast<std::size_t>(workers);
    for (std::size_t k = begin; k < end; ++k) found[k] = estimate_frequency(table, run, pairs[k], angle_noise, angles, buffer);
  });
  for (const std::optional<FrequencyEstimate>& e : found) {
    if (e) estimates.push_back(*e);
  }
  return estimates;
}

int orientation(const std::vector<FrequencyEstimate>& estimates) {
  int positive = 0;
  int negative = 0;
  for (const FrequencyEstimate& e : estimates) {
    if (!e.reliable()) continue;
    (e.w > 0 ? positive : negative) += 1;
  }
  if (positive == 0 && negative == 0) return 0;
  return positive >= negative ? 1 : -1;
}

std::optional<LadderFit> fit_ladder(const std::vector<FrequencyEstimate>& estimates) {
  double s = 0, sx = 0, sy = 0, sxx = 0, sxy = 0;
  int points = 0;
  for (const FrequencyEstimate& e : estimates) {
    if (!e.reliable() || e.w <= 0.0) continue;
    // sigma(ln w) = sigma / w, floored so that no point weighs more than the
    // double precision of its logarithm allows.
    const double sigma_log = std::max(e.sigma / e.w, 1e-12);
    const double weight = 1.0 / (sigma_log * sigma_log);
    const auto x = static_cast<double>(e.frequency_index);
    const double y = std::log(e.w);
    s += weight;
    sx += weight * x;
    sy += weight * y;
    sxx += weight * x * x;
    sxy += weight * x * y;
    ++points;
  }
  const double det = s * sxx - sx * sx;
  if (points < 2 || !(det > 0.0)) return std::nullopt;
  LadderFit fit;
  fit.slope = (s * sxy - sx * sy) / det;
  fit.intercept = (sxx * sy - sx * sxy) / det;
  fit.sigma_slope = std::sqrt(s / det);
  fit.sigma_intercept = std::sqrt(sxx / det);
  fit.points = points;
  return fit;
}

std::vector<FrequencyRule> candidate_rules(const std::optional<LadderFit>& fit, std::int64_t dim,
                                           std::int64_t frequency_count) {
  std::vector<FrequencyRule> rules = {FrequencyRule{FrequencyRuleKind::paper, 10000.0, 1.0, 1.0e4},
                                      FrequencyRule{FrequencyRuleKind::timescale, 10000.0, 1.0, 1.0e4}};
  const auto add = [&rules](const FrequencyRule& rule) {
    const bool finite = std::isfinite(rule.base) && std::isfinite(rule.min_timescale) && std::isfinite(rule.max_timescale);
    const bool sane = rule.base > 1.0 && rule.min_timescale > 0.0 && rule.max_timescale > rule.min_timescale;
    if (!finite || !sane) return;
    if (std::none_of(rules.begin(), rules.end(), [&](const FrequencyRule& r) { return same_rule(r, rule); })) {
      rules.push_back(rule);
    }
  };
  if (!fit || !(fit->slope < 0.0)) return rules;
  // w_0 = 1 / min_ts: an intercept indistinguishable from 0 means min_ts = 1,
  // the only case the paper rule can express.
  const bool unit_start = std::fabs(fit->intercept) <= std::max(4.0 * fit->sigma_intercept, 1e-3);
  const double min_ts = unit_start ? 1.0 : std::exp(-fit->intercept);
  const double base = std::exp(-fit->slope * static_cast<double>(dim) / 2.0);
  const double ratio = std::exp(-fit->slope * static_cast<double>(std::max<std::int64_t>(frequency_count - 1, 1)));
  for (int digits : {1, 2, 3, 0}) {
    const auto shown = [digits](double x) { return digits == 0 ? x : round_significant(x, digits); };
    if (unit_start) add(FrequencyRule{FrequencyRuleKind::paper, shown(base), 1.0, 1.0e4});
    const double start = shown(min_ts);
    add(FrequencyRule{FrequencyRuleKind::timescale, 10000.0, start, shown(start * ratio)});
  }
  return rules;
}

}  // namespace pecheck::validate
