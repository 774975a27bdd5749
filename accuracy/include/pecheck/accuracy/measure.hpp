// A whole table against its exact values, in one call: the Accumulator over
// its rows, as the accuracy checks use it.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "pecheck/accuracy/allowance.hpp"
#include "pecheck/accuracy/compared_entry.hpp"
#include "pecheck/accuracy/measurement.hpp"
#include "pecheck/convention.hpp"
#include "pecheck/fast_encoding.hpp"
#include "pecheck/double_double.hpp"
#include "pecheck/table.hpp"

namespace pecheck::accuracy {

// Statistics of `computed` against `exact` (same shape, row-major) in the
// table's format; `request` gives the convention rows of the table's rows
// (row_offset + r), which the worst inputs and the allowance see. With an
// allowance (third-party subjects), entries beyond the ULP budget are judged
// again against its bound (Measurement::abs_bound).
Measurement measure_accuracy(const TableView& computed, const std::vector<DoubleDouble>& exact,
                             const Convention& convention, const TableRequest& request, double budget_ulp,
                             std::string budget_source, const Allowance* allowance = nullptr);

// An entry as a measurement prints it: its bits in the format, the exact
// value in decimal (21 digits) and its errors, at `position`.
WorstInput worst_input(const ComparedEntry& entry, std::int64_t position, const Format& format);

// The worst entries of `m` (the worst, the abs-bound check's worst, the
// entry nearest zero) given their exact values again by `exact_of`, as
// precise as WorstInput promises: a comparison's exact values need only be as
// precise as its format (2^-(p + 20) relative: 13 of the 21 digits printed
// for float32), so the few printed are evaluated again, and their ULP and
// absolute errors measured again from them; max_ulp becomes the worst entry's.
// (max_abs_error and the RMS stay the comparison's: good to 2^-(p + 20)
// relative.) Nothing when no entry was compared.
void refine_worst_exact(Measurement& m, const std::function<DoubleDouble(const WorstInput&)>& exact_of);

}  // namespace pecheck::accuracy
