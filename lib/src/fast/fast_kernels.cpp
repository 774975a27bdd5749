// This variant's kernel table: compiled into the part (the baseline) and
// once more per variant with that variant's target flags, beside the kernel
// sources it reaches (lib/CMakeLists.txt), so each table calls its own
// variant's copy of them.
#include "fast_kernels.hpp"

#include "pecheck/isa.hpp"

namespace pecheck {

namespace {

void fill_float64(const EncodingPlan& plan, std::int64_t first_row, std::int64_t row_count, std::int64_t row_offset,
                  std::span<double> out, int threads) {
  plan.fill_rows(first_row, row_count, row_offset, out, threads);
}
void fill_float32(const EncodingPlan& plan, std::int64_t first_row, std::int64_t row_count, std::int64_t row_offset,
                  std::span<float> out, int threads) {
  plan.fill_rows(first_row, row_count, row_offset, out, threads);
}
void fill_float16(const EncodingPlan& plan, std::int64_t first_row, std::int64_t row_count, std::int64_t row_offset,
                  std::span<std::uint16_t> out, int threads) {
  plan.fill_rows_float16(first_row, row_count, row_offset, out, threads);
}
void fill_bfloat16(const EncodingPlan& plan, std::int64_t first_row, std::int64_t row_count, std::int64_t row_offset,
                   std::span<std::uint16_t> out, int threads) {
  plan.fill_rows_bfloat16(first_row, row_count, row_offset, out, threads);
}
void fill_narrow_source(const EncodingPlan& plan, std::int64_t first_row, std::int64_t row_count,
                        std::int64_t row_offset, std::span<double> out, int threads) {
  plan.fill_rows_narrow_source(first_row, row_count, row_offset, out, threads);
}

}  // namespace

}  // namespace pecheck

extern "C" const pecheck::FastKernels PECHECK_ISA_SYMBOL(fast_kernels) = {pecheck::fill_float64, pecheck::fill_float32,
                                                                          pecheck::fill_float16, pecheck::fill_bfloat16,
                                                                          pecheck::fill_narrow_source};
