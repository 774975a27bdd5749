#include "pecheck/accuracy/measurement.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace pecheck::accuracy {

// Bin edges in ULP: fine below 1/2 (where correctly rounded values live),
// one bin for the fast path's 0.5 + 2^-20, then octaves.
std::vector<double> ulp_histogram_edges() {
  return {0.0625, 0.125, 0.25, 0.375, 0.5, 0.5 + 0x1.0p-20, 0.75, 1.0, 2.0, 4.0, 16.0, 256.0, 65536.0,
          std::numeric_limits<double>::infinity()};
}

void count_in_histogram(Histogram& histogram, double ulps) {
  const auto bin = std::lower_bound(histogram.upper_edges.begin(), histogram.upper_edges.end(), ulps);
  const auto index = static_cast<std::size_t>(std::min<std::ptrdiff_t>(
      bin - histogram.upper_edges.begin(), static_cast<std::ptrdiff_t>(histogram.upper_edges.size()) - 1));
  ++histogram.counts[index];
}

void merge_measurement(Measurement& total, const Measurement& part) {
  if (total.entries == 0) {
    total = part;
    return;
  }
  const auto measured = [](const Measurement& m) { return static_cast<double>(m.entries - m.mismatches); };
  const double squares = total.rms_ulp * total.rms_ulp * measured(total) + part.rms_ulp * part.rms_ulp * measured(part);
  // A part with measured entries is worse when its max is larger, or when the
  // total has none measured yet (only typed mismatches): its worst is real.
  const bool part_is_worse = measured(part) > 0 && (measured(total) == 0 || part.max_ulp > total.max_ulp);
  if (part_is_worse) {
    total.max_ulp = part.max_ulp;
    total.worst = part.worst;
  }
  if (part.abs_bound) {
    if (!total.abs_bound) {
      total.abs_bound = AbsoluteBoundCheck{};
      total.abs_bound->name = part.abs_bound->name;
      total.abs_bound->source = part.abs_bound->source;
    }
    AbsoluteBoundCheck& sum = *total.abs_bound;
    const AbsoluteBoundCheck& add = *part.abs_bound;
    if (add.beyond_ulp > 0 && (sum.beyond_ulp == 0 || add.worst_ratio > sum.worst_ratio)) {
      sum.worst_ratio = add.worst_ratio;
      sum.worst = add.worst;
      sum.worst_ulp = add.worst_ulp;
      sum.worst_bound = add.worst_bound;
    }
    sum.beyond_ulp += add.beyond_ulp;
    sum.beyond_bound += add.beyond_bound;
  }
  if (part.nearest_zero &&
      (!total.nearest_zero || std::fabs(part.nearest_zero->exact.hi) < std::fabs(total.nearest_zero->exact.hi))) {
    total.nearest_zero = part.nearest_zero;
  }
  total.entries += part.entries;
  total.mismatches += part.mismatches;
  total.reference_escalations += part.reference_escalations;
  total.max_abs_error = std::max(total.max_abs_error, part.max_abs_error);
  total.rms_ulp = measured(total) > 0 ? std::sqrt(squares / measured(total)) : 0.0;
  for (std::size_t k = 0; k < total.ulp_histogram.counts.size() && k < part.ulp_histogram.counts.size(); ++k) {
    total.ulp_histogram.counts[k] += part.ulp_histogram.counts[k];
  }
}

bool within_budget(const Measurement& measurement) {
  if (measurement.mismatches != 0) return false;
  if (measurement.max_ulp <= measurement.budget_ulp) return true;
  return measurement.abs_bound && measurement.abs_bound->beyond_bound == 0;
}

}  // namespace pecheck::accuracy
