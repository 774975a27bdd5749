// The pieces of compute_figure_data, one sweep each (figure_data.cpp puts
// them together). Each catches what the subject cannot do and says so in
// `notes` rather than failing the report.
#pragma once

#include <string>
#include <vector>

#include "pecheck/reports/figure_data.hpp"

namespace pecheck::reports::detail {

// The conventions the subject offers: every preset, or its one fixed convention.
std::vector<Convention> offered_conventions(const Subject& subject);
bool offers_format(const Subject& subject, FormatId format);

// accuracy_sweep.cpp: the ULP sweep, and beside it the float32-angle curve
// for the paper's interleaved convention (it reuses the sweep's exact values).
void sweep_accuracy(const Subject& subject, const FigureSettings& settings, const SweepSizes& sizes, FigureData& data);

}  // namespace pecheck::reports::detail
