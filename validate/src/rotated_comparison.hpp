// A rotated output against the exact rotation of its input or a computation
// model's rotation (reference/rotated_reference.hpp, rotated_models.hpp),
// every rotated entry compared in the output's format.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "pecheck/reference/rotated_models.hpp"
#include "pecheck/rotary_convention.hpp"
#include "pecheck/validate/rotary_validation.hpp"
#include "rotated_pairing.hpp"

namespace pecheck::validate {

struct RotatedComparisonRequest {
  const RotatedValues* values = nullptr;
  const std::vector<std::int64_t>* row_position = nullptr;  // the positions the entries are compared at
  // M-RoPE: the temporal, height and width ids of each row (RotatedTokens::
  // mrope_position); pair i is compared at the id of its section
  // (mrope_position_row). nullptr or empty: every pair at row_position.
  const std::vector<std::vector<std::int64_t>>* mrope_position = nullptr;
  RotaryLayout layout = RotaryLayout::rotate_half;
  std::int64_t width = 0;
  RotaryConvention convention;  // at the rotary width
  FormatId format = FormatId::float32;
  double budget_ulp = 1.0;
  std::string budget_source;
  int threads = 0;
};

// model == nullopt: the exact rotation. A model's entries beyond the ULP
// budget pass within rotated_libm_allowance (the measurement's abs_bound
// says how many it admitted).
// The position pair i of row r is rotated by: its M-RoPE section's id, else the row's.
std::int64_t pair_position(const RotatedComparisonRequest& request, std::int64_t row, std::int64_t pair);

Comparison compare_rotated(const RotatedComparisonRequest& request, const std::optional<reference::RotatedModel>& model,
                           const ComputationModel& angle_model);

}  // namespace pecheck::validate
