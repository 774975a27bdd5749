// Rotary caches (cos and sin tables) from the fast path.
//
// Row r of each table holds position first_position + r; columns follow the
// convention's layout (rotary_convention.hpp). The error budgets are those of
// the additive tables (derived in lib/src/fast/rotary_fast.cpp).
#pragma once

#include <cstdint>
#include <vector>

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
// The same written into `cache`, whose tables are reused when they already
// have the request's shape and format (a caller building cache after cache:
// fresh tables are pages the operating system zeroes before the cache
// writes them, which costs more than the kernel) and replaced otherwise.
// The tables must own their storage (not borrowed_table's).
void fast_rotary_cache_into(const RotaryConvention& convention, const RotaryCacheRequest& request,
                            RotaryCache& cache);

// hf-float32's inv_freq_i, i < d/2, as the fast path computes them (each
// float32 operation of the rule correctly rounded); equal to the
// reference's rotary_model_inv_freq.
std::vector<double> hf_float32_inv_freq(const RotaryConvention& convention);

// The computation model `hf-float32` (transformers' float32 computation,
// rotary_convention.hpp), by the fast path: inv_freq step by step in float32
// and the float32 angle exactly as the model defines them, then each entry
// within 0.5 + 2^-20 ULP of the model's value in float32, float16 and
// bfloat16 (derived in lib/src/fast/rotary_model_fast.cpp). Throws
// ConventionError for any other model, naming it, and for float64 output.
RotaryCache fast_rotary_model_cache(const RotaryConvention& convention, const RotaryCacheRequest& request,
                                    const ComputationModel& model);

}  // namespace pecheck
