#include "pecheck/reports/figure_data.hpp"

#include <algorithm>
#include <exception>

#include "sweeps.hpp"

namespace pecheck::reports {

SweepSizes sweep_sizes(RunMode mode) {
  // ulp_dim, ulp_samples, rows_per_block, map_positions, map_dim.
  // The reference costs a few microseconds per entry: the standard sweep is
  // 6 conventions x 64 blocks x 4 rows x 256 columns, about 0.4 million exact values.
  switch (mode) {
    case RunMode::quick: return {64, 24, 2, 64, 64};
    case RunMode::standard: return {256, 64, 4, 128, 128};
    case RunMode::full: return {512, 160, 8, 128, 128};
  }
  return {};
}

namespace detail {

std::vector<Convention> offered_conventions(const Subject& subject) {
  const SubjectCapabilities capabilities = subject.capabilities();
  if (capabilities.any_convention) return presets();
  if (capabilities.fixed_convention) return {*capabilities.fixed_convention};
  return {};
}

bool offers_format(const Subject& subject, FormatId format) {
  const std::vector<FormatId> formats = subject.capabilities().formats;
  return std::find(formats.begin(), formats.end(), format) != formats.end();
}

namespace {

// The convention the single-convention figures use: the paper's when offered.
const Convention* principal_convention(const std::vector<Convention>& conventions) {
  for (const Convention& convention : conventions) {
    if (convention.name == "vaswani") return &convention;
  }
  return conventions.empty() ? nullptr : &conventions.front();
}

Heatmap encoding_map(const Subject& subject, const Convention& convention, std::int64_t positions, std::int64_t dim) {
  const SubjectCapabilities capabilities = subject.capabilities();
  TableRequest request{positions, dim, 0};
  if (capabilities.fixed_request) {
    request = *capabilities.fixed_request;
    request.rows = std::min(request.rows, positions);
  }
  const Table table = subject.encoding_table(convention, request, FormatId::float32);
  Heatmap map;
  map.rows = table.rows;
  map.cols = table.cols;
  map.values = table_doubles(table);
  map.value_label = "PE value (float32)";
  map.row_origin = static_cast<double>(position_of_row(convention, request.row_offset));
  return map;
}

}  // namespace

}  // namespace detail

FigureData compute_figure_data(const Subject& subject, const FigureSettings& settings) {
  FigureData data;
  data.sizes = sweep_sizes(settings.mode);
  const std::vector<Convention> conventions = detail::offered_conventions(subject);
  if (conventions.empty()) {
    data.notes.push_back("the subject offers no convention: no figure could be computed");
    return data;
  }
  detail::sweep_accuracy(subject, settings, data.sizes, data);
  for (const std::string& skipped : data.ulp.skipped) data.notes.push_back("accuracy sweep, " + skipped);

  const Convention& principal = *detail::principal_convention(conventions);
  const bool float32 = detail::offers_format(subject, FormatId::float32);
  if (!float32) data.notes.push_back("the subject offers no float32 table: no encoding map");
  // Two layouts side by side when offered: interleaved and sin-cos halves.
  for (const Convention& convention : conventions) {
    if (!float32 || (convention.name != principal.name && convention.name != "tensor2tensor")) continue;
    try {
      data.encoding_maps.emplace_back(
          convention.name, detail::encoding_map(subject, convention, data.sizes.map_positions, data.sizes.map_dim));
    } catch (const std::exception& e) {  // a subject never crashes the report: said in the notes
      data.notes.push_back("encoding map for " + convention.name + ": " + e.what());
    }
  }
  return data;
}

}  // namespace pecheck::reports
