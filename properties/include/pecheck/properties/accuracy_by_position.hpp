// The accuracy sweep by position (conformance/accuracy-by-position): the
// report's headline accuracy table and its ulp-error-by-position figure come
// from this check's Outcome, one Measurement per (convention, format).
#pragma once

#include <cstdint>
#include <string_view>

#include "pecheck/properties/check.hpp"
#include "pecheck/properties/check_ids.hpp"

namespace pecheck::properties {

inline constexpr std::string_view accuracy_by_position_id = check_ids::accuracy_by_position;
// The name of the Series tracing the tutorials' float32-angle computation on
// the sweep's rows (followed by " (convention)").
inline constexpr std::string_view float32_angle_model_series = "float32 angles (PyTorch tutorial)";

struct AccuracySweepSize {
  std::int64_t dim = 0;             // width swept
  int samples = 0;                  // log-spaced blocks
  std::int64_t rows_per_block = 0;  // consecutive rows per block
};
AccuracySweepSize accuracy_sweep_size(const RunConfig& config);

// The registered check (its definition is in accuracy_by_position.cpp).
const Check& accuracy_by_position_check();

}  // namespace pecheck::properties
