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

// slow_columns.cpp: for positions [0, P), P = 2, 4, ..., 2^24, how many
// columns of the correctly rounded table keep a single value.
SlowColumnCurve count_slow_columns(const Convention& convention, std::int64_t dim, int threads);

// energy_ratio.cpp: E||s e||^2 / ||PE||^2 for d = 8, 16, ..., max_dim.
EnergyRatioCurve measure_energy_ratio(const Subject& subject, const Convention& convention, std::int64_t max_dim,
                                      int tokens, std::uint64_t seed);

}  // namespace pecheck::reports::detail
