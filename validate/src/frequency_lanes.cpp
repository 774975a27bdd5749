// One group of eight sin/cos pairs' frequency estimates (detection_kernels.hpp):
// the angles of their rows eight at a time and a least-squares line through
// each pair's unwrapped angles. A kernel source: compiled once per
// instruction-set variant (validate/CMakeLists.txt), every variant the same
// bits (-ffp-contract=off; validate_detection_variants_test compares them).
#include <algorithm>
#include <array>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include "detection_kernels.hpp"
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
static_assert(lanes == frequency_lanes);

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

}  // namespace

// The fit starts on the first 16 rows and doubles its window while the
// residual stays below 0.1 rad (frequency_fit.hpp says why).
void estimate_lanes(const Table& table, std::span<const std::int64_t> run, std::span<const FrequencyColumns> pairs,
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

}  // namespace pecheck::validate
