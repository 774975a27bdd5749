// The accuracy sweep: a subject's table against the correctly rounded
// reference, entry by entry, as Boost.Math-style statistics.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "pecheck/convention.hpp"
#include "pecheck/properties/angle_allowance.hpp"
#include "pecheck/fast_encoding.hpp"
#include "pecheck/properties/outcome.hpp"
#include "pecheck/table.hpp"

namespace pecheck::properties {

// Statistics of `computed` against `exact` (same shape, row-major) in the
// format; `request` gives the positions of the rows for the worst input.
// With an allowance (third-party subjects), entries beyond the ULP budget are
// judged again against its bound (Measurement::abs_bound).
Measurement measure_accuracy(const TableView& computed, const std::vector<DoubleDouble>& exact, const Convention& convention,
                             const TableRequest& request, double budget_ulp, std::string budget_source,
                             const Float64AngleAllowance* allowance = nullptr);

// The histogram's upper bin edges in ULP, and the count of one error into it.
std::vector<double> ulp_histogram_edges();
void count_in_histogram(Histogram& histogram, double ulps);

// The absolute-bound check of the float64-angle allowance, with nothing counted yet.
AbsoluteBoundCheck float64_angle_bound_check();

// The worst input at convention row `row`, `column`: the value, its bits in
// the format, the exact value in decimal and the absolute error.
WorstInput worst_input(const Convention& convention, std::int64_t row, std::int64_t column, double value,
                       DoubleDouble exact, const Format& format);

// total := the statistics of total's entries and part's entries together
// (max, RMS from the sums of squares, histogram counts, the worse worst
// input, the absolute-bound counts). An empty total takes part's format,
// budget and histogram edges.
void merge_measurement(Measurement& total, const Measurement& part);

// Whether a measurement is within its budget: no typed mismatch, and the
// largest ULP error at most the budget or, with an absolute bound, no entry
// beyond both.
bool within_budget(const Measurement& measurement);

// "float32: max 0.5 ULP (budget 1), RMS 0.21, max abs 2.9e-08, 123456 entries, worst at ...".
std::string summary(const Measurement& measurement);
// "12 entries beyond the ULP budget, all within the float64-angle bound (largest |error| / bound 0.2 at ...)".
std::string abs_bound_text(const AbsoluteBoundCheck& check);

// Rows sampled for a sweep up to 2^24: the first rows, rows near powers of
// two, and the last rows below 2^24, as TableRequests of `rows_per_block`.
std::vector<TableRequest> sweep_blocks(std::int64_t dim, std::int64_t rows_per_block, bool full);

}  // namespace pecheck::properties
