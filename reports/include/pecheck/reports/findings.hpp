// The findings: answers to the three questions pecheck was built for,
// written from this run's numbers. Each says what the measurements support
// and what they do not, and lists the figures it rests on with their
// sources. A number the run did not produce (a check that did not run, a
// subject without embedding operations) is said to be missing, never filled in.
#pragma once

#include <vector>

#include "pecheck/reports/figure_data.hpp"
#include "pecheck/reports/report_model.hpp"

namespace pecheck::reports {

// (a) why the embeddings are scaled by sqrt(d) before the encoding is added,
// (b) whether that scale cancels attention's 1/sqrt(d_k),
// (c) why the encoding is added rather than concatenated.
// `report` supplies the checks' outcomes; `data` the figures' numbers.
std::vector<Finding> write_findings(const Report& report, const FigureData& data);

}  // namespace pecheck::reports
