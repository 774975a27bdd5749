// Exact arithmetic the add-vs-concat and scaling checks decide their claims
// with: sums of doubles without rounding, the exact rank of a matrix of
// doubles, and sqrt(d) correctly rounded by integer arithmetic alone (an
// oracle independent of lib's implementation).
#pragma once

#include <cstdint>
#include <vector>

#include "pecheck/format.hpp"

namespace pecheck::properties {

// A sum of doubles held exactly as a non-overlapping expansion (Shewchuk,
// "Adaptive precision floating-point arithmetic", 1997: Grow-Expansion with
// zero elimination). Exact as long as no partial sum overflows.
class ExactSum {
 public:
  void add(double x);
  void add_product(double a, double b);  // a * b exactly (two_prod: hi + lo)
  // The exact sum is zero exactly when every component is (non-overlapping
  // components: the largest dominates the others).
  bool is_zero() const;
  double approximate() const;  // the components summed, largest last
  std::size_t components() const { return parts_.size(); }

 private:
  std::vector<double> parts_;  // increasing magnitude, none zero
};

// The rank over the rationals of the rows x cols matrix (row-major, every
// entry a finite double, that is a dyadic rational), bounded below by its rank
// modulo the prime 2^61 - 1: scaling every entry by one power of two gives an
// integer matrix of the same rank, and a minor that is nonzero modulo p is
// nonzero. When the result equals min(rows, cols) it is the exact rank.
std::int64_t rank_lower_bound(const std::vector<double>& values, std::int64_t rows, std::int64_t cols);

// sqrt(d) rounded to nearest even in the format, computed with 128-bit
// integers only: no floating-point sqrt is trusted. d in [1, 2^40].
double integer_sqrt_rounded(std::int64_t d, const Format& format);

}  // namespace pecheck::properties
