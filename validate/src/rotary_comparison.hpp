// A rotary cache against the correctly rounded reference: the exact encoding
// or a framework's computation model (reference/rotary_reference.hpp),
// entry by entry in the cache's format.
#pragma once

#include <optional>
#include <span>
#include <string>
#include <vector>

#include "pecheck/accuracy/accumulator.hpp"
#include "pecheck/rotary_convention.hpp"
#include "pecheck/table.hpp"
#include "pecheck/validate/rotary_validation.hpp"

namespace pecheck::validate {

// Rows first_position .. first_position + rows - 1, every entry compared in
// `format` against the budget, with each target (nullopt: the exact
// encoding; a computation model) in one pass over the cache: a comparison
// per target, in the targets' order; their histograms of ulps as `histogram` says.
std::vector<Comparison> compare_rotary_cache(const Table& cos, const Table& sin, FormatId format,
                                             const RotaryConvention& convention, std::int64_t first_position,
                                             std::span<const std::optional<ComputationModel>> targets,
                                             double budget_ulp, const std::string& budget_source, int threads,
                                             accuracy::HistogramCounting histogram);

}  // namespace pecheck::validate
