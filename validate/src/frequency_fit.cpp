#include "frequency_fit.hpp"

#include <algorithm>
#include <array>
#include <atomic>
#include <cmath>
#include <functional>
#include <optional>
#include <span>
#include <thread>

#include "detection_kernels.hpp"
#include "pecheck/parallel_for.hpp"

namespace pecheck::validate {

namespace {

// 1, 2 or 3 significant digits of x.
double round_significant(double x, int digits) {
  if (!(x > 0.0) || !std::isfinite(x)) return x;
  const double scale = std::pow(10.0, std::floor(std::log10(x)) - (digits - 1));
  return std::nearbyint(x / scale) * scale;
}

bool same_rule(const FrequencyRule& a, const FrequencyRule& b) {
  if (a.kind != b.kind) return false;
  if (a.kind == FrequencyRuleKind::paper) return a.base == b.base;
  if (a.kind == FrequencyRuleKind::timestep) {
    return a.max_period == b.max_period && a.downscale_freq_shift == b.downscale_freq_shift && a.scale == b.scale;
  }
  return a.min_timescale == b.min_timescale && a.max_timescale == b.max_timescale;
}

}  // namespace

namespace {

// Pairs from this many on are split between two threads: each pair's
// estimate reads only the table, and the estimates keep the pairs' order.
constexpr std::size_t parallel_pairs = 64;

}  // namespace

std::vector<FrequencyEstimate> estimate_frequencies(const Table& table, const std::vector<std::int64_t>& run,
                                                    const std::vector<FrequencyColumns>& pairs, FormatId format,
                                                    const std::function<void()>& beside) {
  const GroupTable whole = [&table](std::size_t, std::size_t) -> const Table& { return table; };
  return estimate_frequencies(whole, run, pairs, format, EstimateSharing{beside, 0, nullptr});
}

std::vector<FrequencyEstimate> estimate_frequencies(const GroupTable& group_table, const std::vector<std::int64_t>& run,
                                                    const std::vector<FrequencyColumns>& pairs, FormatId format,
                                                    const EstimateSharing& sharing) {
  std::vector<FrequencyEstimate> estimates;
  if (run.size() < 2) {
    if (sharing.beside) sharing.beside();
    return estimates;
  }
  // One ULP of a value near 1 moves the angle by about 2^(1-p) radians.
  const double angle_noise = std::ldexp(1.0, 1 - format_of(format).precision);
  std::vector<std::optional<FrequencyEstimate>> found(pairs.size());
  constexpr std::size_t lanes = frequency_lanes;
  const std::size_t groups = (pairs.size() + lanes - 1) / lanes;
  const EstimateLanes estimate_lanes = detection_kernels().estimate_lanes;
  // Group g's estimates, stored by their pair's index whichever thread made
  // them; `angles` and `buffer` are the thread's scratch space.
  const auto estimate_group = [&](std::size_t g, std::vector<double>& angles, std::vector<double>& buffer) {
    const std::size_t first = g * lanes;
    const std::size_t count = std::min(lanes, pairs.size() - first);
    estimate_lanes(group_table(first, count), run, pairs, first, angle_noise, std::span(found).subspan(first, count),
                   angles, buffer);
  };
  if (sharing.helper != nullptr) {
    if (sharing.beside) sharing.beside();
    std::array<std::vector<double>, 2> angles;  // by slot
    std::array<std::vector<double>, 2> buffer;
    sharing.helper->run(groups, [&](std::size_t g, int slot) {
      const auto s = static_cast<std::size_t>(slot);
      estimate_group(g, angles[s], buffer[s]);
    });
  } else {
    const bool two = (pairs.size() >= parallel_pairs || sharing.beside) && worker_count(sharing.threads, 2) >= 2;
    // Each thread takes the next group not yet taken (worker 0 after `beside`).
    std::atomic<std::size_t> next{0};
    parallel_for(two ? 2 : 1, [&](int worker) {
      if (worker == 0 && sharing.beside) sharing.beside();
      std::vector<double> angles;
      std::vector<double> buffer;
      for (std::size_t g = next++; g < groups; g = next++) estimate_group(g, angles, buffer);
    });
  }
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
  // Diffusion timestep embeddings (sd-timestep: exp(-ln(10^4) i / floor(d/2))):
  // at even d the paper rule's frequencies already, at odd d a rule of its own.
  if (dim % 2 == 1) {
    FrequencyRule timestep;
    timestep.kind = FrequencyRuleKind::timestep;
    timestep.max_period = 1.0e4;
    timestep.downscale_freq_shift = 0;
    rules.push_back(timestep);
  }
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
