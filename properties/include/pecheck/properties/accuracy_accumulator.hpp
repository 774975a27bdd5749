// measure_accuracy's statistics gathered row by row, so a table can be
// compared with a reference that is computed row by row and never stored
// (validate's full comparison): one accumulator per worker thread, merged at
// the end. The figures are measure_accuracy's: the same max and worst entry
// (ties go to the earliest row and column, as there), the same counts and
// histogram, the RMS from the same squares summed in another order (equal to
// a few double roundings, far below its printed digits), the same in every
// run whatever the threads' order (order_free_sum.hpp).
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "pecheck/convention.hpp"
#include "pecheck/double_double.hpp"
#include "pecheck/properties/angle_allowance.hpp"
#include "pecheck/properties/order_free_sum.hpp"
#include "pecheck/properties/outcome.hpp"
#include "pecheck/table.hpp"

namespace pecheck::properties {

class AccuracyAccumulator {
 public:
  // Entries are judged in `format`; beyond `budget_ulp`, against `allowance`
  // when given (as measure_accuracy does; the allowance must outlive this).
  AccuracyAccumulator(FormatId format, double budget_ulp, const Float64AngleAllowance* allowance);

  // Row `table_row` of `table` (stored in `format`) against its exact values;
  // `convention_row` names the row for the allowance and the worst input.
  void add_row(const TableView& table, std::int64_t table_row, std::int64_t convention_row,
               std::span<const DoubleDouble> exact);
  // The same for a row whose exact values are plain doubles (every lo zero),
  // handed as such: half the bytes to read.
  void add_row(const TableView& table, std::int64_t table_row, std::int64_t convention_row,
               std::span<const double> plain_exact);

  // This accumulator's entries and other's together (order does not matter).
  void merge(const AccuracyAccumulator& other);

  // The statistics as measure_accuracy gives them (worst rows are convention rows).
  Measurement measurement(const Convention& convention, std::string budget_source, std::int64_t escalations) const;
  // Whether every value added is finite and in [-1, 1], as sin and cos are.
  bool values_in_unit_interval() const;

 private:
  // An entry kept for the worst input: where it is, what it holds, what it should.
  struct Entry {
    std::int64_t row = -1;  // -1: none yet
    std::int64_t column = 0;
    double value = 0.0;
    DoubleDouble exact;
    bool before(const Entry& other) const { return row < other.row || (row == other.row && column < other.column); }
  };

  // A row's exact values: double-doubles, or plain doubles (lo zero).
  struct ExactRow {
    const DoubleDouble* pairs = nullptr;
    const double* plain = nullptr;
    DoubleDouble operator[](std::size_t e) const { return plain != nullptr ? DoubleDouble{plain[e], 0.0} : pairs[e]; }
  };
  void add_row(const TableView& table, std::int64_t table_row, std::int64_t convention_row, ExactRow exact);
  // Value: float or double, the table's storage (16-bit formats decoded to double first).
  template <typename Value>
  void add_values(const Value* values, std::int64_t count, std::int64_t convention_row, ExactRow exact);
  void add_entry(std::int64_t row, std::int64_t column, double value, DoubleDouble exact, double ulps);
  void beyond_budget(std::int64_t row, std::int64_t column, double value, DoubleDouble exact, double ulps,
                     double abs_error);

  FormatId format_id_;
  double budget_ulp_;
  const Float64AngleAllowance* allowance_;
  std::int64_t entries_ = 0;
  std::int64_t mismatches_ = 0;
  // The largest bit pattern of |value| added: magnitudes order as their
  // patterns, with infinity and NaN above every finite value.
  std::uint64_t largest_value_bits_ = 0;
  OrderFreeSum sum_squares_;
  double max_ulp_ = 0.0;
  double max_abs_error_ = 0.0;
  Entry worst_;
  Histogram histogram_;
  // The allowance's check, as AbsoluteBoundCheck counts it.
  std::int64_t beyond_ulp_ = 0;
  std::int64_t beyond_bound_ = 0;
  double worst_ratio_ = 0.0;
  double worst_ratio_ulp_ = 0.0;
  double worst_ratio_bound_ = 0.0;
  Entry worst_ratio_entry_;
  // A row's values and errors, reused row after row.
  std::vector<double> values_, ulps_, abs_;
  std::vector<unsigned char> common_;
};

}  // namespace pecheck::properties
