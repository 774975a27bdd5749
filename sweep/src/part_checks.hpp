// The figures of a part read from a file, checked against each other and
// against the subject and the reference (part_checks.cpp).
#pragma once

#include <string>

#include "pecheck/sweep/result.hpp"

namespace pecheck::sweep {

// Throws SweepFileError naming `source` and the field when a figure of
// `result` is one no sweep of its rows produces: a worst entry outside the
// shard's rows or widths, a value or exact value that is not the subject's or
// the reference's, a NaN where a measured entry belongs, counts that disagree
// with the worst entries, a sum of squares outside [max^2, n max^2].
void check_part_figures(const SweepResult& result, const std::string& source);

}  // namespace pecheck::sweep
