// The rotary caches' entry points whose code is compiled once per
// instruction-set variant (cmake/PecheckDispatch.cmake; lib/CMakeLists.txt
// lists the sources): filling the rows of a fast rotary cache and of the
// hf-float32 model's cache. The public functions (rotary_fast.cpp,
// rotary_model_fast.cpp) compute the frequencies and check the request in
// baseline code, then call one of these once per cache.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "pecheck/rotary_cache.hpp"
#include "rotated_rows.hpp"

namespace pecheck {

// A convention's frequencies in turns, split for sincos_turns and padded to
// whole groups of lanes with zero frequencies (rotary_fast.cpp): what the
// cache's rows are computed from.
struct RotaryTurns {
  std::vector<double> f1, f2, f3;
  std::int64_t padded = 0;
  TurnsView view() const { return {f1.data(), f2.data(), f3.data(), padded}; }
};
RotaryTurns rotary_turns(const RotaryConvention& convention);

struct RotaryKernels {
  // Every row of `cache` (tables of the request's shape and format, written
  // whole), row r at position first_position + r, from the convention's
  // frequencies in turns, each value times attention_factor rounded once
  // (rotary_fast.cpp derives the bounds); rows split across `workers` threads.
  void (*fill_cache)(const RotaryConvention& convention, const TurnsView& turns, double attention_factor,
                     std::int64_t first_position, int workers, RotaryCache& cache);
  // The same for the hf-float32 model (rotary_model_fast.cpp): the angles
  // p inv_freq[i] rounded to float32, the factor a float32 value.
  void (*fill_hf_float32)(const RotaryConvention& convention, std::span<const double> inv_freq, double factor,
                          std::int64_t first_position, int workers, RotaryCache& cache);
};

// The selected variant's kernels (pecheck/isa.hpp); throws isa::VariantError
// for a bad PECHECK_ISA.
const RotaryKernels& rotary_kernels();
// Variant i of pecheck::isa::variants(), for the tests that compare them.
const RotaryKernels& rotary_kernels(std::size_t variant);

// fast_rotary_cache_into and fast_rotary_model_cache (rotary_cache.hpp) with
// the given kernels: the public functions pass rotary_kernels(), the tests
// each variant's.
void fast_rotary_cache_into(const RotaryConvention& convention, const RotaryCacheRequest& request, RotaryCache& cache,
                            const RotaryKernels& kernels);
RotaryCache fast_rotary_model_cache(const RotaryConvention& convention, const RotaryCacheRequest& request,
                                    const ComputationModel& model, const RotaryKernels& kernels);

}  // namespace pecheck
