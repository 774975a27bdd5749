// The float32 rotary cache from rotated pair rows (rotated_rows.hpp): per row,
// every frequency's sin and cos rotated from an anchor row, each rounded once
// to float32, then spread into the columns of the convention's layout. Why
// this stays within the 1 ULP budget: rotary_fast.cpp, step 4.
#pragma once

#include <cstdint>

#include "pecheck/rotary_cache.hpp"
#include "rotated_rows.hpp"

namespace pecheck {

// Rows of `cache` (float32 cos and sin tables, rotary_columns(convention)
// wide) hold positions first_position + r; `turns` holds the convention's
// rotary_derived().frequencies frequencies, split for the kernel and padded.
// Rows are split across `workers` threads; the bits do not depend on how.
void fill_rotated_float32(const RotaryConvention& convention, const TurnsView& turns, double attention_factor,
                          std::int64_t first_position, int workers, RotaryCache& cache);

}  // namespace pecheck
