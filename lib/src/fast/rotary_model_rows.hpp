// The rows of the hf-float32 model's cache (rotary_model_fast.cpp derives
// why each entry is within 0.5 + 2^-20 ULP of the model): a row's float32
// angles each as an integer times a power of two, one vector pass of the
// kernel over them, each value times the float32 factor rounded once.
#pragma once

#include <cstdint>
#include <span>

#include "pecheck/rotary_cache.hpp"

namespace pecheck {

// Every row of `cache` (float32, float16 or bfloat16 tables, written whole),
// row r at position first_position + r (below 2^24), from the model's
// float32 inv_freq (hf_float32_inv_freq) and factor; rows split across
// `workers` threads, the bits do not depend on how.
void fill_hf_float32_rows(const RotaryConvention& convention, std::span<const double> inv_freq, double factor,
                          std::int64_t first_position, int workers, RotaryCache& cache);

}  // namespace pecheck
