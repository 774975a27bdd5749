#include "pecheck/accuracy/angle_allowance.hpp"

#include <algorithm>
#include <cmath>

#include "pecheck/ulp.hpp"

namespace pecheck::accuracy {

namespace {

constexpr double u = 0x1.0p-53;
// Covers the second-order terms of the derivation and the rounding of the
// bound's own evaluation here (a few u relative, w from frequency_value).
constexpr double slack = 1.0 + 0x1.0p-40;

// k_c of angle_allowance.hpp for frequency index i: |theta^ - theta| <= k_c u theta.
double angle_coefficient(const Convention& convention, std::int64_t dim, std::int64_t i) {
  const FrequencyTerm term = frequency_term(convention, dim, i);
  const bool divided = term.divisor != 1.0;
  const bool multiplied = term.multiplier != 1.0;  // a timestep rule's scale: one more product
  if (term.k == 0 && !divided && !multiplied) return 0.0;  // w = 1: every step is exact
  const double log_b = std::fabs(std::log(term.log_numerator / term.log_denominator));
  const double t = static_cast<double>(term.k) / static_cast<double>(term.m) * log_b;
  // ln B's relative error in units of u: the libm's 2L, and 1 / |ln B| more
  // when B is the rounded quotient max_ts / min_ts.
  const double log_error = 2.0 * float64_libm_ulps + (term.log_denominator != 1.0 ? 1.0 / log_b : 0.0);
  const double exponent_error = log_error + 2.0;  // then / m and * k
  return exponent_error * t + 2.0 * float64_libm_ulps + 2.0 + (divided ? 1.0 : 0.0) + (multiplied ? 1.0 : 0.0);
}

}  // namespace

Float64AngleAllowance::Float64AngleAllowance(const Convention& convention, std::int64_t dim, FormatId format)
    : convention_(convention), format_(format) {
  const std::vector<ColumnSpec> columns = column_layout(convention, dim);
  angle_error_per_position_.reserve(columns.size());
  zero_column_.reserve(columns.size());
  for (const ColumnSpec& column : columns) {
    zero_column_.push_back(column.kind == ColumnKind::zero);
    if (column.kind == ColumnKind::zero) {
      angle_error_per_position_.push_back(0.0);
      continue;
    }
    const double w = frequency_value(convention, dim, column.frequency_index);
    angle_error_per_position_.push_back(angle_coefficient(convention, dim, column.frequency_index) * u * w);
    largest_per_position_ = std::max(largest_per_position_, angle_error_per_position_.back());
  }
}

double Float64AngleAllowance::angle_error(std::int64_t row, std::int64_t column) const {
  const auto p = static_cast<double>(position_of_row(convention_, row));
  return angle_error_per_position_[static_cast<std::size_t>(column)] * std::fabs(p) * slack;
}

double Float64AngleAllowance::bound(std::int64_t row, std::int64_t column, DoubleDouble exact) const {
  // Zero rows and columns are written as zeros, and at position 0 the angle
  // is 0 and sin(0) = 0, cos(0) = 1 in every libm: exact entries.
  if (zero_column_[static_cast<std::size_t>(column)] || is_zero_row(convention_, row) ||
      position_of_row(convention_, row) == 0) {
    return 0.0;
  }
  const double float64_error = angle_error(row, column) + float64_libm_ulps * u;
  const Format& format = format_of(format_);
  if (format.precision >= 53) return float64_error * slack;
  return (0.5 * ulp_of(exact, format) + 2.0 * float64_error) * slack;
}

double Float64AngleAllowance::largest_bound(std::int64_t row) const {
  const auto p = static_cast<double>(std::max<std::int64_t>(position_of_row(convention_, row), 0));
  const double float64_error = largest_per_position_ * p * slack + float64_libm_ulps * u;
  const Format& format = format_of(format_);
  if (format.precision >= 53) return float64_error * slack;
  return (std::ldexp(1.0, -format.precision) + 2.0 * float64_error) * slack;
}

}  // namespace pecheck::accuracy
