#include "pecheck/properties/tail_bounds.hpp"

#include <cmath>
#include <limits>

namespace pecheck::properties {

double two_sided_exponent(double delta) { return std::log(2.0 / delta); }

Interval chi_square_mean_interval(double k, double delta) {
  const double t = two_sided_exponent(delta);
  const double spread = 2.0 * std::sqrt(t / k);
  return {1.0 - spread, 1.0 + spread + 2.0 * t / k};
}

Interval weighted_chi_square_interval(double sum, double norm2, double max, double delta) {
  const double t = two_sided_exponent(delta);
  const double spread = 2.0 * norm2 * std::sqrt(t);
  return {sum - spread, sum + spread + 2.0 * max * t};
}

double cosine_union_bound(double d, double pairs, double delta) {
  // 2 exp(-d c^2 / 2) * pairs = delta  =>  c = sqrt(2 ln(2 pairs / delta) / d)
  return std::sqrt(2.0 * std::log(2.0 * pairs / delta) / d);
}

double gamma_n(double n, double unit_roundoff) {
  const double nu = n * unit_roundoff;
  return nu < 1.0 ? nu / (1.0 - nu) : std::numeric_limits<double>::infinity();
}

}  // namespace pecheck::properties
