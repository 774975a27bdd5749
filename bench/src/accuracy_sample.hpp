// The accuracy check that goes with the float32 table's timing: a sample of
// its entries against the correctly rounded reference's exact values.
#pragma once

#include <cstdint>
#include <span>

#include "pecheck/convention.hpp"
#include "pecheck/fast_encoding.hpp"
#include "pecheck/rotary_cache.hpp"

namespace pecheck::bench {

struct AccuracySample {
  double max_ulp = 0.0;
  std::int64_t entries = 0;
};

// `entries` entries of the table (rows x dim of request, values row-major):
// the first row's and the last row's first columns, and the rest drawn from
// `seed`, each measured in float32 ulps (ulp.hpp) against
// reference::exact_value.
AccuracySample sample_float32_accuracy(const Convention& convention, const TableRequest& request,
                                       std::span<const float> values, std::int64_t entries, std::uint64_t seed);

// The same for a float32 rotary cache: `entries` (position, column) cells,
// the first and last rows' first columns and the rest drawn from `seed`, each
// measured in its cos and its sin against reference::rotary_exact_value (the
// exact encoding), so the sample holds 2 x entries values.
AccuracySample sample_rotary_float32_accuracy(const RotaryConvention& convention, const RotaryCacheRequest& request,
                                              const RotaryCache& cache, std::int64_t entries, std::uint64_t seed);

}  // namespace pecheck::bench
