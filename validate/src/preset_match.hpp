// Whether a found convention is one of the presets over the rows a table holds.
#pragma once

#include <cstdint>
#include <vector>

#include "pecheck/convention.hpp"

namespace pecheck::validate {

// True when the two conventions' rules give the same frequencies at width d
// (the paper rule with base B is a shift-0 timestep rule with max_period B
// at even d; a timescale rule from 1 is a shift-1 one).
bool same_frequencies(const Convention& a, const Convention& b, std::int64_t dim);

// True when `preset` produces the same table as `found` at width d for
// convention rows [row_offset, row_offset + rows): same layout and frequencies, the
// same zero rows within those rows, and the same odd-width policy when d is odd.
bool same_table(const Convention& preset, const Convention& found, std::int64_t dim, std::int64_t row_offset,
                std::int64_t rows);

// The presets that are `found` over those rows, in all_presets() order.
std::vector<Convention> matching_presets(const Convention& found, std::int64_t dim, std::int64_t row_offset,
                                         std::int64_t rows);

}  // namespace pecheck::validate
