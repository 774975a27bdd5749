// The report's Answers for a terminal: what `pecheck report` prints after the
// list of files it wrote, so the three answers are read without opening the
// page.
#pragma once

#include <string>

#include "pecheck/reports/report_model.hpp"

namespace pecheck::reports {

// A box of lines at most 100 characters wide: each question, its short answer,
// key figure and caveat, as the Answers section of report.html and report.md
// gives them. Empty when no finding has a short answer (the run measured too
// little).
std::string answers_text(const Report& report);

}  // namespace pecheck::reports
