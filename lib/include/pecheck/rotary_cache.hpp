// Rotary caches (cos and sin tables) from the fast path.
//
// Row r of each table holds position first_position + r; columns follow the
// convention's layout (rotary_convention.hpp). The error budgets are those of
// the additive tables (derived in lib/src/fast/rotary_fast.cpp).
#pragma once

#include <cstdint>

#include "pecheck/format.hpp"
#include "pecheck/rotary_convention.hpp"
#include "pecheck/table.hpp"

namespace pecheck {

struct RotaryCacheRequest {
  std::int64_t first_position = 0;
  std::int64_t rows = 0;
  FormatId format = FormatId::float32;
};

struct RotaryCache {
  Table cos;
  Table sin;
};

// Throws ConventionError for an impossible request (bad convention, negative
// rows, positions outside [0, 2^24)).
void check_rotary_request(const RotaryConvention& convention, const RotaryCacheRequest& request);

// The exact encoding, by the fast path.
RotaryCache fast_rotary_cache(const RotaryConvention& convention, const RotaryCacheRequest& request);

}  // namespace pecheck
