#include "frequency_fit.hpp"

#include <algorithm>
#include <array>
#include <atomic>
#include <cmath>
#include <functional>
#include <optional>
#include <span>
#include <thread>

#include "pecheck/parallel_for.hpp"
#include "eight_angles.hpp"
#include "wrap_angle.hpp"

namespace pecheck::validate {

namespace {

// Pairs are fitted this many at a time, one lane each: a lane's operations
// are those of a fit of its pair alone, in the same order (the same bits:
// nothing is contracted into an FMA, PecheckOptions.cmake), but the lanes'
// sums are independent chains that overlap instead of each waiting for its
// own last addition.
constexpr std::size_t lanes = std::tuple_size_v<EightDoubles>;

struct LineFits {
  EightDoubles slope{};
  EightDoubles rms{};
  double s_tt = 0.0;  // the same for every lane: it depends on n alone
};

// For each lane, least squares of the unwrapped angles (each step taken as
// the lane's predicted slope plus the wrapped deviation from it) against
// t = 0..n-1. `angles` holds row t's lanes at [t * lanes, (t + 1) * lanes).
LineFits fit_lines(const std::vector<double>& angles, std::size_t n, const EightDoubles& predicted,
                   std::vector<double>& buffer) {
  buffer.resize(n * lanes);  // reused from fit to fit
  double* unwrapped = buffer.data();
  const double* angle = angles.data();
  for (std::size_t l = 0; l < lanes; ++l) unwrapped[l] = angle[l];
  for (std::size_t t = 1; t < n; ++t) {
    for (std::size_t l = 0; l < lanes; ++l) {
      const std::size_t k = t * lanes + l;
      unwrapped[k] = unwrapped[k - lanes] + predicted[l] + wrap(angle[k] - angle[k - lanes] - predicted[l]);
    }
  }
  const double mean_t = static_cast<double>(n - 1) / 2.0;
  EightDoubles mean_y{};
  for (std::size_t t = 0; t < n; ++t) {
    for (std::size_t l = 0; l < lanes; ++l) mean_y[l] += unwrapped[t * lanes + l];
  }
  for (double& m : mean_y) m /= static_cast<double>(n);
  EightDoubles s_ty{};
  LineFits fits;
  for (std::size_t t = 0; t < n; ++t) {
    const double dt = static_cast<double>(t) - mean_t;
    for (std::size_t l = 0; l < lanes; ++l) s_ty[l] += dt * (unwrapped[t * lanes + l] - mean_y[l]);
    fits.s_tt += dt * dt;
  }
  for (std::size_t l = 0; l < lanes; ++l) fits.slope[l] = s_ty[l] / fits.s_tt;
  EightDoubles squares{};
  for (std::size_t t = 0; t < n; ++t) {
    for (std::size_t l = 0; l < lanes; ++l) {
      const double residual =
          unwrapped[t * lanes + l] - (mean_y[l] + fits.slope[l] * (static_cast<double>(t) - mean_t));
      squares[l] += residual * residual;
    }
  }
  for (std::size_t l = 0; l < lanes; ++l) {
    fits.rms[l] = n > 2 ? std::sqrt(squares[l] / static_cast<double>(n - 2)) : 0.0;
  }
  return fits;
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

// The estimates of pairs[first, first + lanes) (fewer at the end), each
// empty when an angle of its pair is not finite. The fit starts on the
// first 16 rows and doubles its window while the residual stays below
// 0.1 rad. `angles` and `buffer` are scratch space.
void estimate_lanes(const Table& table, const std::vector<std::int64_t>& run, const std::vector<FrequencyColumns>& pairs,
                    std::size_t first, double angle_noise, std::span<std::optional<FrequencyEstimate>> found,
                    std::vector<double>& angles, std::vector<double>& buffer) {
  const std::size_t used = std::min(lanes, pairs.size() - first);
  const std::size_t rows = run.size();
  // Row by row, the lanes' columns of one row together (a cache line or
  // two); lanes past the last pair hold zeros.
  static_assert(lanes == 8, "eight_angles takes eight pairs");
  angles.resize(rows * lanes);
  for (std::size_t t = 0; t < rows; ++t) {
    EightDoubles sin{};
    EightDoubles cos{};
    for (std::size_t l = 0; l < used; ++l) {
      sin[l] = table.at(run[t], pairs[first + l].sin_column);
      cos[l] = table.at(run[t], pairs[first + l].cos_column);
    }
    const EightDoubles row_angles = eight_angles(sin, cos);
    std::copy(row_angles.begin(), row_angles.end(), angles.begin() + static_cast<std::ptrdiff_t>(t * lanes));
  }
  std::array<bool, lanes> finite{};
  for (std::size_t l = 0; l < lanes; ++l) {
    finite[l] = true;
    for (std::size_t t = 0; t < rows; ++t) finite[l] = finite[l] && std::isfinite(angles[t * lanes + l]);
  }
  std::size_t n = std::min<std::size_t>(16, rows);
  EightDoubles predicted{};
  for (std::size_t l = 0; l < lanes; ++l) predicted[l] = wrap(angles[lanes + l] - angles[l]);
  LineFits fits = fit_lines(angles, n, predicted, buffer);
  EightDoubles s_tt{};
  s_tt.fill(fits.s_tt);
  std::array<bool, lanes> widening = finite;  // a lane stops at its first residual above 0.1 rad
  while (n < rows && std::any_of(widening.begin(), widening.end(), [](bool w) { return w; })) {
    const std::size_t wider = std::min(rows, 2 * n);
    const LineFits next = fit_lines(angles, wider, fits.slope, buffer);
    for (std::size_t l = 0; l < lanes; ++l) {
      if (!widening[l] || next.rms[l] > 0.1) {
        widening[l] = false;
        continue;
      }
      fits.slope[l] = next.slope[l];
      fits.rms[l] = next.rms[l];
      s_tt[l] = next.s_tt;
    }
    n = wider;
  }
  for (std::size_t l = 0; l < used; ++l) {
    if (!finite[l]) continue;
    FrequencyEstimate estimate;
    estimate.frequency_index = pairs[first + l].frequency_index;
    estimate.w = fits.slope[l];
    estimate.sigma = std::max(fits.rms[l], angle_noise) / std::sqrt(s_tt[l]);
    found[l] = estimate;
  }
}

}  // namespace

std::vector<FrequencyEstimate> estimate_frequencies(const Table& table, const std::vector<std::int64_t>& run,
                                                    const std::vector<FrequencyColumns>& pairs, FormatId format,
                                                    const std::function<void()>& beside) {
  std::vector<FrequencyEstimate> estimates;
  if (run.size() < 2) {
    if (beside) beside();
    return estimates;
  }
  // One ULP of a value near 1 moves the angle by about 2^(1-p) radians.
  const double angle_noise = std::ldexp(1.0, 1 - format_of(format).precision);
  std::vector<std::optional<FrequencyEstimate>> found(pairs.size());
  const std::size_t groups = (pairs.size() + lanes - 1) / lanes;
  const bool two = (pairs.size() >= parallel_pairs || beside) && machine_threads() >= 2;
  // Each thread takes the next group not yet taken (worker 0 after `beside`):
  // the estimates are stored by their pair's index, whichever thread made them.
  std::atomic<std::size_t> next{0};
  parallel_for(two ? 2 : 1, [&](int worker) {
    if (worker == 0 && beside) beside();
    std::vector<double> angles;
    std::vector<double> buffer;
    for (std::size_t g = next++; g < groups; g = next++) {
      const std::size_t first = g * lanes;
      estimate_lanes(table, run, pairs, first, angle_noise,
                     std::span(found).subspan(first, std::min(lanes, pairs.size() - first)), angles, buffer);
    }
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
