// This variant's rotary kernel table: compiled into the part (the baseline)
// and once more per variant with that variant's target flags, beside the
// sources its entries spend their time in (lib/CMakeLists.txt), so each
// table calls its own variant's copy of them.
#include "rotary_kernels.hpp"

#include <vector>

#include "pecheck/isa.hpp"
#include "pecheck/parallel_for.hpp"
#include "rotary_model_rows.hpp"
#include "rotary_rotated_fill.hpp"
#include "rotary_row_store.hpp"
#include "sincos_turns.hpp"

namespace pecheck {

namespace {

// float32 rotates (rotary_rotated_fill.hpp); the other formats take every
// row from the kernel (rotary_fast.cpp, steps 2 to 4).
void fill_cache(const RotaryConvention& convention, const TurnsView& turns, double attention_factor,
                std::int64_t first_position, int workers, RotaryCache& cache) {
  if (cache.cos.format == FormatId::float32) {
    fill_rotated_float32(convention, turns, attention_factor, first_position, workers, cache);
    return;
  }
  RotaryRowStore rows(convention, attention_factor, cache);
  const std::int64_t row_count = cache.cos.rows;
  parallel_for(workers, [&](int worker) {
    std::vector<double> sin_row(static_cast<std::size_t>(turns.padded)), cos_row(sin_row);
    const std::int64_t first = row_count * worker / workers;
    const std::int64_t last = row_count * (worker + 1) / workers;
    for (std::int64_t r = first; r < last; ++r) {
      sincos_turns(first_position + r, turns.f1, turns.f2, turns.f3, turns.padded, sin_row.data(), cos_row.data());
      rows.store(r, cos_row.data(), sin_row.data());
    }
  });
}

}  // namespace

}  // namespace pecheck

extern "C" const pecheck::RotaryKernels PECHECK_ISA_SYMBOL(rotary_kernels) = {pecheck::fill_cache,
                                                                              pecheck::fill_hf_float32_rows};
