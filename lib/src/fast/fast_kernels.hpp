// The fast path's entry points whose code is compiled once per instruction-set
// variant (cmake/PecheckDispatch.cmake, lib/CMakeLists.txt lists the
// sources): filling an additive table's rows from its plan. The public
// functions (fast_encoding.cpp) call them through fast_kernels(), once per
// table or block of rows, never per entry.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>

#include "encoding_plan.hpp"

namespace pecheck {

struct FastKernels {
  void (*fill_float64)(const EncodingPlan& plan, std::int64_t first_row, std::int64_t row_count,
                       std::int64_t row_offset, std::span<double> out, int threads);
  void (*fill_float32)(const EncodingPlan& plan, std::int64_t first_row, std::int64_t row_count,
                       std::int64_t row_offset, std::span<float> out, int threads);
  void (*fill_float16)(const EncodingPlan& plan, std::int64_t first_row, std::int64_t row_count,
                       std::int64_t row_offset, std::span<std::uint16_t> out, int threads);
  void (*fill_bfloat16)(const EncodingPlan& plan, std::int64_t first_row, std::int64_t row_count,
                        std::int64_t row_offset, std::span<std::uint16_t> out, int threads);
  void (*fill_narrow_source)(const EncodingPlan& plan, std::int64_t first_row, std::int64_t row_count,
                             std::int64_t row_offset, std::span<double> out, int threads);
};

// The selected variant's kernels (pecheck/isa.hpp); throws isa::VariantError
// for a bad PECHECK_ISA.
const FastKernels& fast_kernels();
// Variant i of pecheck::isa::variants(), for the tests that compare them.
const FastKernels& fast_kernels(std::size_t variant);

}  // namespace pecheck
