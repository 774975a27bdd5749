// row_ulp_errors through the selected instruction-set variant's kernel
// (ulp_kernels.hpp). Baseline code: compiled once, never with a variant's flags.
#include <array>

#include "pecheck/accuracy/ulp_kernel.hpp"
#include "pecheck/isa.hpp"
#include "pecheck_isa_variants.hpp"
#include "ulp_kernels.hpp"

PECHECK_ISA_KERNEL_TABLES(pecheck::accuracy::UlpKernels, ulp_kernels, ulp_tables);

namespace pecheck::accuracy {

const UlpKernels& ulp_kernels() { return isa::pick(ulp_tables); }
const UlpKernels& ulp_kernels(std::size_t variant) { return *ulp_tables.at(variant); }

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

RowTotals row_ulp_errors_judged(std::span<const float> values, std::span<const DoubleDouble> exact,
                                const Format& format, const std::array<double, judged_thresholds>& thresholds,
                                std::span<const double> bounds, double budget, double ratio_floor,
                                RowJudgement& judgement) {
  return ulp_kernels().judged_float_against_double_double(values, exact, format, thresholds, bounds, budget,
                                                          ratio_floor, judgement);
}
RowTotals row_ulp_errors_judged(std::span<const double> values, std::span<const DoubleDouble> exact,
                                const Format& format, const std::array<double, judged_thresholds>& thresholds,
                                std::span<const double> bounds, double budget, double ratio_floor,
                                RowJudgement& judgement) {
  return ulp_kernels().judged_double_against_double_double(values, exact, format, thresholds, bounds, budget,
                                                           ratio_floor, judgement);
}
RowTotals row_ulp_errors_judged(std::span<const float> values, std::span<const double> exact, const Format& format,
                                const std::array<double, judged_thresholds>& thresholds, std::span<const double> bounds,
                                double budget, double ratio_floor, RowJudgement& judgement) {
  return ulp_kernels().judged_float_against_double(values, exact, format, thresholds, bounds, budget, ratio_floor,
                                                   judgement);
}
RowTotals row_ulp_errors_judged(std::span<const double> values, std::span<const double> exact, const Format& format,
                                const std::array<double, judged_thresholds>& thresholds, std::span<const double> bounds,
                                double budget, double ratio_floor, RowJudgement& judgement) {
  return ulp_kernels().judged_double_against_double(values, exact, format, thresholds, bounds, budget, ratio_floor,
                                                    judgement);
}

RowTotals row_ulp_budget(std::span<const float> values, std::span<const DoubleDouble> exact, const Format& format,
                         double budget) {
  return ulp_kernels().budget_float_against_double_double(values, exact, format, budget);
}
RowTotals row_ulp_budget(std::span<const double> values, std::span<const DoubleDouble> exact, const Format& format,
                         double budget) {
  return ulp_kernels().budget_double_against_double_double(values, exact, format, budget);
}
RowTotals row_ulp_budget(std::span<const float> values, std::span<const double> exact, const Format& format,
                         double budget) {
  return ulp_kernels().budget_float_against_double(values, exact, format, budget);
}
RowTotals row_ulp_budget(std::span<const double> values, std::span<const double> exact, const Format& format,
                         double budget) {
  return ulp_kernels().budget_double_against_double(values, exact, format, budget);
}

RowTotals row_ulp_budget_judged(std::span<const float> values, std::span<const DoubleDouble> exact,
                                const Format& format, std::span<const double> bounds, double budget, double ratio_floor,
                                RowJudgement& judgement) {
  return ulp_kernels().budget_judged_float_against_double_double(values, exact, format, bounds, budget, ratio_floor,
                                                                 judgement);
}
RowTotals row_ulp_budget_judged(std::span<const double> values, std::span<const DoubleDouble> exact,
                                const Format& format, std::span<const double> bounds, double budget, double ratio_floor,
                                RowJudgement& judgement) {
  return ulp_kernels().budget_judged_double_against_double_double(values, exact, format, bounds, budget, ratio_floor,
                                                                  judgement);
}
RowTotals row_ulp_budget_judged(std::span<const float> values, std::span<const double> exact, const Format& format,
                                std::span<const double> bounds, double budget, double ratio_floor,
                                RowJudgement& judgement) {
  return ulp_kernels().budget_judged_float_against_double(values, exact, format, bounds, budget, ratio_floor,
                                                          judgement);
}
RowTotals row_ulp_budget_judged(std::span<const double> values, std::span<const double> exact, const Format& format,
                                std::span<const double> bounds, double budget, double ratio_floor,
                                RowJudgement& judgement) {
  return ulp_kernels().budget_judged_double_against_double(values, exact, format, bounds, budget, ratio_floor,
                                                           judgement);
}

}  // namespace pecheck::accuracy
