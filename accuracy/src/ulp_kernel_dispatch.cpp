// row_ulp_errors through the selected instruction-set variant's kernel
// (ulp_kernels.hpp). Baseline code: compiled once, never with a variant's flags.
#include <array>

#include "pecheck/accuracy/ulp_kernel.hpp"
#include "pecheck/isa.hpp"
#include "pecheck_isa_variants.hpp"
#include "ulp_kernels.hpp"

#define PECHECK_ULP_DECLARE(name, cpu, about) \
  extern "C" const pecheck::accuracy::UlpKernels pecheck_isa_##name##_ulp_kernels;
extern "C" const pecheck::accuracy::UlpKernels pecheck_isa_baseline_ulp_kernels;
PECHECK_ISA_FOR_EACH_VARIANT(PECHECK_ULP_DECLARE)

namespace pecheck::accuracy {

namespace {

#define PECHECK_ULP_ADDRESS(name, cpu, about) , &pecheck_isa_##name##_ulp_kernels
const std::array<const UlpKernels*, 1 PECHECK_ISA_FOR_EACH_VARIANT(PECHECK_ISA_COUNT)> tables{
    &pecheck_isa_baseline_ulp_kernels PECHECK_ISA_FOR_EACH_VARIANT(PECHECK_ULP_ADDRESS)};

}  // namespace

const UlpKernels& ulp_kernels() { return isa::pick(tables); }
const UlpKernels& ulp_kernels(std::size_t variant) { return *tables.at(variant); }

RowTotals row_ulp_errors(std::span<const float> values, std::span<const DoubleDouble> exact, const Format& format,
                         const std::array<double, row_thresholds>& thresholds, const RowErrors* store) {
  return ulp_kernels().float_against_double_double(values, exact, format, thresholds, store);
}
RowTotals row_ulp_errors(std::span<const double> values, std::span<const DoubleDouble> exact, const Format& format,
                         const std::array<double, row_thresholds>& thresholds, const RowErrors* store) {
  return ulp_kernels().double_against_double_double(values, exact, format, thresholds, store);
}
RowTotals row_ulp_errors(std::span<const float> values, std::span<const double> exact, const Format& format,
                         const std::array<double, row_thresholds>& thresholds, const RowErrors* store) {
  return ulp_kernels().float_against_double(values, exact, format, thresholds, store);
}
RowTotals row_ulp_errors(std::span<const double> values, std::span<const double> exact, const Format& format,
                         const std::array<double, row_thresholds>& thresholds, const RowErrors* store) {
  return ulp_kernels().double_against_double(values, exact, format, thresholds, store);
}

}  // namespace pecheck::accuracy
