// Where a rotary cache's row 0 lies: the position whose angles under a
// rule's frequencies match row 0's, from the cache alone.
#pragma once

#include <cstdint>
#include <vector>

#include "pecheck/table.hpp"

namespace pecheck::validate {

// The position p of row 0 (below 2^24 - rows) whose angles p * inv_freq_i
// best match `angles` (row 0's, one per frequency) modulo 2 pi; pairs at
// frequency 0 say nothing and are skipped.
std::int64_t fit_first_position(const std::vector<double>& angles, const std::vector<double>& inv_freq,
                                std::int64_t rows);

// atan2(sin, cos) of each frequency at row 0 of `pairs` ([sin of each
// frequency | cos of each], n each); `swapped`: cos and sin exchanged.
std::vector<double> row0_angles(const Table& pairs, std::int64_t n, bool swapped);

}  // namespace pecheck::validate
