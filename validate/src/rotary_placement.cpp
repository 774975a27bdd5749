#include "rotary_placement.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numbers>

namespace pecheck::validate {

namespace {

constexpr double two_pi = 2.0 * std::numbers::pi;
constexpr std::int64_t position_limit = std::int64_t{1} << 24;

double wrap(double angle) { return angle - two_pi * std::nearbyint(angle / two_pi); }

}  // namespace

// The position p of row 0 with p * v_i = angle_i (mod 2 pi) for every i: the
// slowest frequency pins p modulo 2 pi / v_min; each candidate below 2^24 is
// walked up the ladder, every faster frequency correcting it by its wrapped
// angle error (safe while that error times the next frequency stays below pi,
// as the ladder's small ratios ensure), then rounded and scored by the sum of
// squared angle errors over every frequency.
std::int64_t fit_first_position(const std::vector<double>& angles, const std::vector<double>& inv_freq,
                                std::int64_t rows) {
  // A pair at frequency 0 (a custom rule's) says nothing of the position.
  std::vector<std::size_t> order;
  for (std::size_t i = 0; i < inv_freq.size(); ++i) {
    if (inv_freq[i] > 0.0) order.push_back(i);
  }
  if (order.empty()) return 0;
  std::sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return inv_freq[a] < inv_freq[b]; });
  const double slowest = inv_freq[order.front()];
  const auto last_first = static_cast<double>(position_limit - rows);
  std::int64_t best = 0;
  double best_score = std::numeric_limits<double>::infinity();
  for (double start = wrap(angles[order.front()]) < 0 ? wrap(angles[order.front()]) + two_pi : wrap(angles[order.front()]);
       start / slowest <= last_first + 1.0; start += two_pi) {
    double p = start / slowest;
    for (std::size_t k = 1; k < order.size(); ++k) {
      const std::size_t i = order[k];
      p += wrap(angles[i] - p * inv_freq[i]) / inv_freq[i];
    }
    const auto candidate = static_cast<std::int64_t>(std::clamp(std::nearbyint(p), 0.0, last_first));
    double score = 0.0;
    for (std::size_t i : order) {
      const double e = wrap(angles[i] - static_cast<double>(candidate) * inv_freq[i]);
      score += e * e;
    }
    if (score < best_score) best_score = score, best = candidate;
  }
  return best;
}

// atan2(sin, cos) of each frequency at file row 0 (unswapped).
std::vector<double> row0_angles(const Table& pairs, std::int64_t n, bool swapped) {
  std::vector<double> angles(static_cast<std::size_t>(n));
  for (std::int64_t i = 0; i < n; ++i) {
    const double s = pairs.at(0, i);
    const double c = pairs.at(0, n + i);
    angles[static_cast<std::size_t>(i)] = swapped ? std::atan2(c, s) : std::atan2(s, c);
  }
  return angles;
}

}  // namespace pecheck::validate
