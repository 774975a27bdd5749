// The libm allowance of rotary caches judged against a computation model:
// what a framework's own float32 libm may do that the model (every operation
// correctly rounded) does not. Its inv_freq is within relative
// libm_inv_freq_allowance of the model's (2^(2-q) at q significant bits,
// derived in lib/src/numbers/rotary_convention.cpp). The angle p * inv_freq
// then moves by up to that times |angle|, and its rounding to the angle
// format by one more ulp(angle); cos and sin move by at most the attention
// factor times that.
#pragma once

#include <cstdint>
#include <limits>
#include <string_view>
#include <vector>

#include "pecheck/accuracy/allowance.hpp"
#include "pecheck/rotary_convention.hpp"

namespace pecheck::accuracy {

inline constexpr std::string_view libm_allowance_source =
    "inv_freq within relative 2^(2-q) of the model's (a libm pow within 1 ULP), one ULP of the angle";

// Rows are cache rows (row r holds position first_position + r); the columns
// are a cos row's `cache_columns` followed by the sin row's, as the rotary
// comparison hands them to the accumulator.
class LibmAllowance final : public Allowance {
 public:
  LibmAllowance(const RotaryConvention& convention, const ComputationModel& model, std::int64_t first_position,
                std::int64_t cache_columns);

  double bound(std::int64_t row, std::int64_t column, DoubleDouble exact) const override;
  // The same bounds in one pass over the row (the exact values are not read).
  void row_bounds(std::int64_t row, std::span<const std::int64_t> column, const ColumnsPlan* plan,
                  std::span<const double> exact, std::span<double> out) const override;
  // Each entry's inv_freq, and how often they repeat (a row of distinct
  // entries: sin's after cos's), for rows of these columns; null when a
  // column is past a row's.
  std::unique_ptr<const ColumnsPlan> plan_columns(std::span<const std::int64_t> column) const override;
  std::string_view name() const override { return "the libm allowance"; }
  std::string_view source() const override { return libm_allowance_source; }

 private:
  double factor_ = 1.0;    // the attention factor
  double relative_ = 0.0;  // libm_inv_freq_allowance
  FormatId angle_format_ = FormatId::float32;
  std::int64_t first_position_ = 0;
  std::vector<double> inv_freq_;                   // the model's, one per frequency
  std::vector<std::int64_t> frequency_of_column_;  // one per cache column
  std::vector<double> inv_freq_of_column_;         // inv_freq_[frequency_of_column_[c]]
  std::vector<double> inv_freq_of_row_column_;     // the same for a row's columns, cos's then sin's
  double smallest_inv_freq_ = std::numeric_limits<double>::infinity();  // over inv_freq_
  double largest_inv_freq_ = 0.0;
};

}  // namespace pecheck::accuracy
