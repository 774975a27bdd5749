// The float-angle tier's rows for a computation model whose angles are
// float32 values (float_angle_tier.hpp): rotary_reference_rows takes a
// model's rows from it (rotary_row_streams.cpp), a row it leaves an entry of
// by the rotary tiers and MPFR (RotaryRowEvaluator); each exact value is
// within the same tolerance. rotary_reference_cache takes the same exact
// values (FloatAngleRows), so the streamed and the stored routes agree bit
// for bit.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "pecheck/reference/rotary_reference.hpp"

namespace pecheck::reference {

// Whether the float-angle tier serves this request: a model with float32
// angles and positions and inv_freq of at most 26 significant bits, a cache
// format of at most 26 (narrower than float64), and exact values wanted to
// the format's accuracy (ExactValues::for_format).
bool float_angle_rows_apply(const std::optional<ComputationModel>& model, FormatId format, ExactValues exact);

// The model's inputs taken once (its inv_freq by MPFR, its attention
// factor, as rotary_tiers.cpp takes them), then a row's frequencies at a time.
class FloatAngleRows {
 public:
  // Requires float_angle_rows_apply(model, format, exact).
  FloatAngleRows(const RotaryConvention& convention, const ComputationModel& model, FormatId format,
                 ExactValues exact);
  // Frequency i's exact cos and sin at `position` into cos_values[i] and
  // sin_values[i] (each a buffer of frequencies() doubles); true when the
  // tier settled every one of them (the values are meant only then).
  bool row(std::int64_t position, double* cos_values, double* sin_values);
  std::size_t frequencies() const { return inv_freq_.size(); }

 private:
  std::vector<double> inv_freq_;
  double factor_ = 1.0;
  double tolerance_ = 0.0;
  FormatId position_format_;
  std::vector<double> angles_;
  std::vector<std::int64_t> fits_, ok_;  // the kernels' verdicts, 64-bit lanes (float_angle_tier.hpp)
};

}  // namespace pecheck::reference
