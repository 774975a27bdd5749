#include "drift.hpp"

#include <algorithm>
#include <cmath>
#include <sstream>

#include "encoding_rows.hpp"
#include "pecheck/number_text.hpp"

namespace pecheck::validate {

namespace {

// Rows spread over the table on which the deviation is measured: enough for
// an RMS within a few percent of the whole table's, a few milliseconds.
constexpr std::int64_t measured_rows = 4096;

}  // namespace

std::optional<Drift> drift_from_encoding(const Table& table, TableReadings& readings) {
  const FormatId format = readings.options().value_format.value_or(table.format);
  if (format_of(format).precision <= format_of(FormatId::bfloat16).precision) return std::nullopt;
  const Detection& near = readings.coarse();
  if (!near.sinusoidal || !near.convention) return std::nullopt;

  std::vector<std::int64_t> rows;
  const std::int64_t count = std::min(table.rows, measured_rows);
  for (std::int64_t k = 0; k < count; ++k) rows.push_back(count == 1 ? 0 : k * (table.rows - 1) / (count - 1));
  rows.erase(std::unique(rows.begin(), rows.end()), rows.end());
  const std::vector<double> expected = encoding_rows(*near.convention, table.cols, shifted(rows, near.row_offset));
  double squares = 0.0;
  std::int64_t entries = 0;
  double worst = 0.0;
  std::int64_t worst_row = 0;
  std::int64_t worst_column = 0;
  for (std::size_t k = 0; k < rows.size(); ++k) {
    for (std::int64_t c = 0; c < table.cols; ++c) {
      const double difference =
          table.at(rows[k], c) - expected[k * static_cast<std::size_t>(table.cols) + static_cast<std::size_t>(c)];
      if (!std::isfinite(difference)) continue;  // reported on its own (non-finite)
      squares += difference * difference;
      ++entries;
      if (std::fabs(difference) > worst) {
        worst = std::fabs(difference);
        worst_row = rows[k];
        worst_column = c;
      }
    }
  }
  if (entries == 0) return std::nullopt;
  const double rms = std::sqrt(squares / static_cast<double>(entries));
  const std::string name = near.preset ? *near.preset : "a custom convention (" + describe(*near.convention) + ")";

  std::ostringstream evidence;
  evidence << "sin^2 + cos^2 misses 1 by more than " << format_of(format).name
           << " rounding allows, yet the table lies within RMS " << significant(rms, 3) << " (max " << significant(worst, 3)
           << " at row " << worst_row << ", column " << worst_column << ") of " << name
           << " with file row 0 holding row " << near.row_offset << ", over " << rows.size()
           << " rows spread over the table";
  if (const DetectionOptions& options = readings.options(); options.convention && near.preset != options.convention->name) {
    evidence << " (detected without --convention; not " << options.convention->name << ")";
  }
  evidence
      << ": a sinusoidal table moved by training or overwritten with small random values (CONVENTIONS.md fault 6).";
  Drift drift;
  drift.hazard.kind = HazardKind::drifted;
  drift.hazard.evidence = evidence.str();
  drift.reason = "the table has drifted from " + (near.preset ? *near.preset : std::string("a sinusoidal encoding")) +
                 " by RMS " + significant(rms, 3) + ": it is no longer a sinusoidal encoding";
  return drift;
}

}  // namespace pecheck::validate
