// The rows the conformance checks sample on their way to 2^24.
#pragma once

#include <cstdint>
#include <vector>

#include "pecheck/fast_encoding.hpp"

namespace pecheck::properties {

// Rows sampled for a sweep up to 2^24: the first rows, rows near powers of
// two, and the last rows below 2^24, as TableRequests of `rows_per_block`.
std::vector<TableRequest> sweep_blocks(std::int64_t dim, std::int64_t rows_per_block, bool full);

}  // namespace pecheck::properties
