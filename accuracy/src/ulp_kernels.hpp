// The ULP kernel's entry points (ulp_kernel.hpp's row_ulp_errors), compiled
// once per instruction-set variant (cmake/PecheckDispatch.cmake);
// row_ulp_errors calls the selected variant's once per row.
#pragma once

#include <cstddef>

#include "pecheck/accuracy/ulp_kernel.hpp"

namespace pecheck::accuracy {

template <typename Value, typename Exact>
using RowUlpErrors = RowTotals (*)(std::span<const Value> values, std::span<const Exact> exact, const Format& format,
                                   const std::array<double, row_thresholds>& thresholds, const RowErrors* store);

template <typename Value, typename Exact>
using RowUlpErrorsJudged = RowTotals (*)(std::span<const Value> values, std::span<const Exact> exact,
                                         const Format& format, const std::array<double, judged_thresholds>& thresholds,
                                         std::span<const double> bounds, double budget, double ratio_floor,
                                         RowJudgement& judgement);

template <typename Value, typename Exact>
using RowUlpBudget = RowTotals (*)(std::span<const Value> values, std::span<const Exact> exact, const Format& format,
                                   double budget);

template <typename Value, typename Exact>
using RowUlpBudgetJudged = RowTotals (*)(std::span<const Value> values, std::span<const Exact> exact,
                                         const Format& format, std::span<const double> bounds, double budget,
                                         double ratio_floor, RowJudgement& judgement);

struct UlpKernels {
  RowUlpErrors<float, DoubleDouble> float_against_double_double;
  RowUlpErrors<double, DoubleDouble> double_against_double_double;
  RowUlpErrors<float, double> float_against_double;
  RowUlpErrors<double, double> double_against_double;
  RowUlpErrorsJudged<float, DoubleDouble> judged_float_against_double_double;
  RowUlpErrorsJudged<double, DoubleDouble> judged_double_against_double_double;
  RowUlpErrorsJudged<float, double> judged_float_against_double;
  RowUlpErrorsJudged<double, double> judged_double_against_double;
  RowUlpBudget<float, DoubleDouble> budget_float_against_double_double;
  RowUlpBudget<double, DoubleDouble> budget_double_against_double_double;
  RowUlpBudget<float, double> budget_float_against_double;
  RowUlpBudget<double, double> budget_double_against_double;
  RowUlpBudgetJudged<float, DoubleDouble> budget_judged_float_against_double_double;
  RowUlpBudgetJudged<double, DoubleDouble> budget_judged_double_against_double_double;
  RowUlpBudgetJudged<float, double> budget_judged_float_against_double;
  RowUlpBudgetJudged<double, double> budget_judged_double_against_double;
};

// The selected variant's (pecheck/isa.hpp); variant i of isa::variants() for
// the tests that compare them.
const UlpKernels& ulp_kernels();
const UlpKernels& ulp_kernels(std::size_t variant);

}  // namespace pecheck::accuracy
