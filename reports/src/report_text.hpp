// Plain-text pieces every writer prints the same way: a failure's details, a
// statistic's bounds, the worst input of a measurement. Writers escape them
// for their own format.
#pragma once

#include <string>

#include "pecheck/reports/report_model.hpp"

namespace pecheck::reports {

// The claim, the message, the counterexample, the measurements outside their
// budget, the seed and the reproduce command, one per line.
std::string failure_details(const CheckResult& check);
// The message, then one line per measurement and statistic.
std::string measured_details(const CheckResult& check);

// The faults a check is proven to catch, "random-init, float16-storage", or
// "none (an observation)".
std::string catches_text(const CheckResult& check);

// A statistic's value as every writer prints it: "1.00123" (6 significant
// digits), or for a mean over draws "0.143 ± 0.020 (n = 30)" (3 and 2
// digits: the spread decides how many are meaningful).
std::string value_text(const properties::Statistic& statistic);
// "0.14" for a statistic with a closed form (3 significant digits), else "".
std::string closed_form_text(const properties::Statistic& statistic);
// value_text, then "; closed form 0.14" when there is one: a table's value cell.
std::string value_cell_text(const properties::Statistic& statistic);

// "[0.99, 1.01]", ">= 0.5", "<= 2", or "none".
std::string bounds_text(const properties::Statistic& statistic);
bool within_bounds(const properties::Statistic& statistic);
// A statistic's own status: info when it has no bound (nothing asserts it,
// so it is never shown as held), else held or failed by its bounds.
properties::Verdict statistic_verdict(const properties::Statistic& statistic);

// The page's title, saying what was checked: "pecheck report: 64 checks of
// pecheck's fast implementation (encoding-bounds, scaling-variance, ...)",
// or for a file "pecheck validate: FILE, its comparison, diagnosis and checks".
std::string report_title(const Report& report);

// A finding's heading under Findings. When the Answers section answers it
// in brief, the heading refers to that answer ("(a): the argument behind the
// answer") rather than repeat the question; otherwise it is the question.
std::string finding_heading(const Finding& finding);

// The width of an accuracy row: "512", or "several" for a check that sweeps several (dim 0).
std::string dim_text(const AccuracyRow& row);

// "row 12 (position 12), column 7: 0x3f7ffffe, exact 0.999999880790710449219".
std::string worst_input_text(const accuracy::Measurement& measurement);
// "0x3c919435 (0.5 ULP) at position 4480530, column 0 (vaswani); exact 1.777e-02": one entry, compactly.
std::string entry_text(const accuracy::WorstInput& entry);

// "float32: max 0.5 ULP, RMS 0.29 ULP, max abs error 5.96e-08 (budget 1 ULP)".
std::string measurement_line(const accuracy::Measurement& measurement);

}  // namespace pecheck::reports
