// An allowance: how far from the exact value a subject's ordinary, correct
// computation of an entry may be, derived from the way it computes. An entry
// beyond the ULP budget still passes when its absolute error is within the
// allowance's bound: the ULP budget judges the rounding of the value, the
// allowance the error the computation carries in before it (a rounded angle,
// a libm's inv_freq). Implementations: Float64AngleAllowance (additive
// tables computed in float64) and LibmAllowance (rotary caches against a
// computation model).
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <string_view>

#include "pecheck/accuracy/measurement.hpp"
#include "pecheck/double_double.hpp"

namespace pecheck::accuracy {

class Allowance;

// What an allowance's row_bounds derives from a row's columns alone (which
// entries share a frequency, where their values sit), derived once
// (Allowance::plan_columns) for every row handed with the same columns: a
// comparison's rows of distinct entries all have the same ones.
class ColumnsPlan {
 public:
  ColumnsPlan(const Allowance& allowance, std::span<const std::int64_t> column)
      : allowance_(&allowance), column_(column) {}
  virtual ~ColumnsPlan() = default;
  // Made by `allowance` for these columns: the same array, in the same
  // place (its holder keeps it unchanged while the plan is used).
  bool made_for(const Allowance& allowance, std::span<const std::int64_t> column) const {
    return allowance_ == &allowance && column_.data() == column.data() && column_.size() == column.size();
  }

 private:
  const Allowance* allowance_;
  std::span<const std::int64_t> column_;
};

class Allowance {
 public:
  virtual ~Allowance() = default;
  // The largest |stored - exact| the computation may give for the entry at
  // (row, column) whose exact value is `exact`. Rows are the rows the
  // accumulator is given (convention rows, cache rows: each allowance says).
  virtual double bound(std::int64_t row, std::int64_t column, DoubleDouble exact) const = 0;
  // bound(row, column[e], {exact[e], 0}) for every entry e of a row, into out
  // (as long as exact; entry e is column e when `column` is empty): the
  // accumulator's pass over a row with entries beyond the budget. `plan`,
  // when given, is this allowance's plan_columns(column) (one made by
  // another allowance or for other columns is not used). This default calls
  // bound(); an allowance that does not read the exact value's low word may
  // compute the row in one vector pass.
  virtual void row_bounds(std::int64_t row, std::span<const std::int64_t> column, const ColumnsPlan* plan,
                          std::span<const double> exact, std::span<double> out) const;
  // What row_bounds may take from `column` once for every row (null: nothing).
  virtual std::unique_ptr<const ColumnsPlan> plan_columns(std::span<const std::int64_t> column) const;
  virtual std::string_view name() const = 0;    // "the float64-angle bound"
  virtual std::string_view source() const = 0;  // its derivation, in one sentence
};

// The decision on one entry beyond the ULP budget.
struct AllowanceDecision {
  double bound = 0.0;
  // |error| / bound: infinity for a bound of 0 (an entry the computation
  // gives exactly admits nothing but the exact value).
  double ratio = 0.0;
  bool admitted = false;  // |error| <= bound (never for a NaN error)
};
AllowanceDecision judge(const Allowance& allowance, std::int64_t row, std::int64_t column, DoubleDouble exact,
                        double abs_error);

// The allowance's check with nothing counted yet: its name and source.
AbsoluteBoundCheck empty_bound_check(const Allowance& allowance);

}  // namespace pecheck::accuracy
