// M-RoPE's three position ids (temporal, height, width) in a rotated-output
// validation: POS's shape against the convention, and which misreading of
// the ids explains an output that deviates.
#pragma once

#include <optional>
#include <string>

#include "pecheck/reference/rotated_models.hpp"
#include "pecheck/validate/rotated_output.hpp"
#include "pecheck/validate/validation.hpp"
#include "rotated_comparison.hpp"

namespace pecheck::validate {

// Throws ValidationInputError naming POS when it holds three rows of ids but
// the convention has no mrope_section (or none is given), or one row while the
// convention has sections.
void check_mrope_positions(const RotatedSubject& subject, const RotatedTokens& tokens,
                           const std::optional<RotaryConvention>& convention);

// For an output under an M-RoPE convention that conforms to no target: the
// first misreading under which it conforms on its first rows (at most 256),
// tried in this order: all three ids, the height and width ids, or one id
// off by +1 or -1 (vllm issue 16878); the sections in runs where interleaved
// ones are expected or the reverse; every pair at the temporal id (the
// sections ignored). nullopt when none explains it.
std::optional<Hazard> diagnose_mrope_ids(const RotatedComparisonRequest& request, const ComputationModel& angle_model);

}  // namespace pecheck::validate
