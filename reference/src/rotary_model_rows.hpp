// rotary_reference_rows for a computation model whose angles are float32
// values (float_angle_tier.hpp): each row by the float-angle tier, a row it
// leaves an entry of by the rotary tiers and MPFR (RotaryRowEvaluator), as
// before. The rows, their order per worker and the split are
// rotary_reference_rows'; each exact value is within the same tolerance.
#pragma once

#include <optional>

#include "pecheck/reference/rotary_reference.hpp"

namespace pecheck::reference {

// Whether rotary_model_rows serves this request: a model with float32
// angles and positions and inv_freq of at most 26 significant bits, a cache
// format of at most 26 (narrower than float64), and exact values wanted to
// the format's accuracy (ExactValues::for_format).
bool float_angle_rows_apply(const std::optional<ComputationModel>& model, FormatId format, ExactValues exact);

// Requires float_angle_rows_apply(model, request.format, exact).
RotaryReferenceCounts rotary_model_rows(const RotaryConvention& convention, const RotaryCacheRequest& request,
                                        const ComputationModel& model, int threads, ExactValues exact,
                                        const RotaryRowVisitor& visit);

}  // namespace pecheck::reference
