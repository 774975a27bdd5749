// The numbers behind the report's figures, accuracy tables and findings,
// computed from the subject, the reference and the families' outcomes. Typed
// here so the findings read numbers, not plotted strings; figures.hpp turns
// them into Figures. Deterministic: the same subject, seed and mode give the
// same values, whatever the number of threads.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "pecheck/format.hpp"
#include "pecheck/properties/outcome.hpp"
#include "pecheck/reports/report_model.hpp"
#include "pecheck/subject.hpp"

namespace pecheck::reports {

struct FigureSettings {
  RunMode mode = RunMode::standard;
  std::uint64_t seed = 0;
  // The outcome of conformance/accuracy-by-position when the report ran it:
  // the accuracy figure plots its measurements. Null: the figures run it.
  const properties::Outcome* accuracy = nullptr;
};

// How large each sweep is in each mode (documented in the report).
struct SweepSizes {
  std::int64_t ulp_dim;         // width of the ULP sweep
  int ulp_samples;              // sampled block starts from position 0 to 2^24
  std::int64_t rows_per_block;  // consecutive rows per sample
  std::int64_t map_positions;   // rows of the encoding heatmap
  std::int64_t map_dim;
};
SweepSizes sweep_sizes(RunMode mode);

// The subject against the reference for one convention and format: per
// sampled block, the largest ULP and absolute errors, and the statistics of
// the whole sweep Boost.Math style.
struct UlpCurve {
  std::string convention;
  FormatId format = FormatId::float32;
  std::vector<double> positions;  // first position of each block
  std::vector<double> max_ulp;    // NaN where the block had only typed mismatches
  std::vector<double> max_abs_error;
  accuracy::Measurement measurement;
};

struct UlpSweep {
  std::int64_t dim = 0;
  std::int64_t rows_per_block = 0;
  std::vector<UlpCurve> curves;      // conventions in preset order, formats in FormatId order
  std::vector<std::string> skipped;  // "convention/format: why" for what the subject does not offer
};

// The tutorials' float32 angles (p * w in float, then sinf/cosf) against the
// subject's float32 table, as absolute error per sampled position.
struct AngleErrorCurve {
  std::string convention;
  std::int64_t dim = 0;
  std::vector<double> positions;
  std::vector<double> float32_angles;
  std::vector<double> subject;
};

// E||s e||^2 / ||PE||^2 measured for each d, e ~ N(0, 1/d) (tensor2tensor and
// fairseq's initialisation), PE the subject's float32 rows: the width sweep
// of scaling-variance/energy-ratio, read from its Outcome.
struct EnergyRatioCurve {
  std::vector<double> dims;
  std::vector<double> with_scale;     // s = the subject's sqrt(d) in float32
  std::vector<double> without_scale;  // s = 1
};

// For positions [0, P): how many columns of the correctly rounded encoding
// keep one value in the format (encoding-bounds/constant-columns-exact).
struct SlowColumnCurve {
  std::string convention;
  std::int64_t dim = 0;
  std::vector<double> range_ends;  // P
  std::vector<FormatId> formats;
  std::vector<std::vector<double>> counts;  // [format][range]
};

struct FigureData {
  SweepSizes sizes{};
  UlpSweep ulp;
  std::optional<AngleErrorCurve> angles;
  std::vector<std::pair<std::string, Heatmap>> encoding_maps;  // convention name, map
  std::optional<EnergyRatioCurve> energy;
  std::optional<SlowColumnCurve> slow_columns;
  std::vector<std::string> notes;  // what could not be computed for this subject, and why
};

FigureData compute_figure_data(const Subject& subject, const FigureSettings& settings);

// The energy-ratio and constant-column curves, read from the Outcomes of
// scaling-variance/energy-ratio and encoding-bounds/constant-columns-exact
// by their typed keys (absent when the check did not run or measured none).
void add_check_curves(FigureData& data, const std::vector<CheckResult>& checks);

// The Boost.Math-style tables: one row per convention and format of the
// report's ULP sweep, then one row per measurement the checks made (the
// conformance family's, over every preset at once).
std::vector<AccuracyTable> accuracy_tables(const FigureData& data, const std::vector<CheckResult>& checks);

// The figures, with captions written from the numbers. The families'
// outcomes add what they measured: the token-recoverability curves, and
// their statistics as marked points.
std::vector<Figure> build_figures(const FigureData& data, const std::vector<CheckResult>& checks);

}  // namespace pecheck::reports
