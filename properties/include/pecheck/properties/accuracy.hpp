// The accuracy sweep: a subject's table against the correctly rounded
// reference, entry by entry, as Boost.Math-style statistics.
#pragma once

#include <cstdint>
#include <vector>

#include "pecheck/convention.hpp"
#include "pecheck/fast_encoding.hpp"
#include "pecheck/properties/outcome.hpp"
#include "pecheck/table.hpp"

namespace pecheck::properties {

// Statistics of `computed` against `exact` (same shape, row-major) in the
// format; `request` gives the positions of the rows for the worst input.
Measurement measure_accuracy(const Table& computed, const std::vector<DoubleDouble>& exact, const Convention& convention,
                             const TableRequest& request, double budget_ulp, std::string budget_source);

// Rows sampled for a sweep up to 2^24: the first rows, rows near powers of
// two, and the last rows below 2^24, as TableRequests of `rows_per_block`.
std::vector<TableRequest> sweep_blocks(std::int64_t dim, std::int64_t rows_per_block, bool full);

}  // namespace pecheck::properties
