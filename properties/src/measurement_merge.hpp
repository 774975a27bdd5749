// Adding one block's accuracy statistics to a sweep's total.
#pragma once

#include "pecheck/properties/outcome.hpp"

namespace pecheck::properties {

// total := the statistics of total's entries and part's entries together
// (max, RMS from the sums of squares, histogram counts, the worse worst
// input). An empty total takes part's format, budget and histogram edges.
void merge_measurement(Measurement& total, const Measurement& part);

// Whether a measurement is within its budget: no typed mismatch and the
// largest ULP error at most the budget.
bool within_budget(const Measurement& measurement);

// "float32: max 0.5 ULP (budget 1), RMS 0.21, max abs 2.9e-08, 123456 entries, worst at ...".
std::string summary(const Measurement& measurement);

}  // namespace pecheck::properties
