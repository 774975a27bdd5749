#include <algorithm>
#include <exception>
#include <cmath>
#include <limits>

#include "parallel.hpp"
#include "pecheck/properties/accuracy.hpp"
#include "pecheck/properties/budgets.hpp"
#include "pecheck/reference/reference.hpp"
#include "pecheck/ulp.hpp"
#include "sweeps.hpp"
#include "text_format.hpp"
#include "pecheck/count_text.hpp"

namespace pecheck::reports::detail {

namespace {

// Block starts from `first` to the last block ending at `end`, spaced
// evenly in log(1 + row - first): dense near position 0 where the table
// changes fastest, and reaching the last rows below 2^24 where float32
// positions run out. Blocks never overlap.
std::vector<std::int64_t> block_starts(std::int64_t first, std::int64_t end, std::int64_t rows, int samples) {
  const std::int64_t last = end - rows;
  if (last < first || samples < 1) return {};
  std::vector<std::int64_t> wanted = {first};
  const double span = static_cast<double>(last - first);
  for (int k = 1; k < samples; ++k) {
    const double t = std::pow(span + 1.0, static_cast<double>(k) / (samples - 1)) - 1.0;
    wanted.push_back(first + std::llround(t));
  }
  std::vector<std::int64_t> starts;
  std::int64_t covered = first;
  for (std::int64_t start : wanted) {
    start = std::max(start, covered);
    if (start > last) continue;
    starts.push_back(start);
    covered = start + rows;
  }
  return starts;
}

// The PyTorch tutorial's float32 encoding entry: div_term = exp(2i *
// (-ln(base) / d)) with the scalar rounded to float32 and exp in float32, the
// position converted to float32, the angle p * div_term rounded to float32,
// then sinf or cosf. Every operation is a float32 operation.
double float32_angle_entry(const Convention& convention, std::int64_t dim, const ColumnSpec& column,
                           std::int64_t position) {
  if (column.kind == ColumnKind::zero) return 0.0;
  const float exponent_scale = static_cast<float>(-std::log(convention.frequency.base) / static_cast<double>(dim));
  const float div_term = std::exp(static_cast<float>(2 * column.frequency_index) * exponent_scale);
  const float angle = static_cast<float>(position) * div_term;
  return column.kind == ColumnKind::sin ? std::sin(angle) : std::cos(angle);
}

// The tutorial's way applies to the paper's frequency rule.
bool has_float32_angle_twin(const Convention& convention) {
  return convention.frequency.kind == FrequencyRuleKind::paper && convention.zero_rows.empty() &&
         convention.position_offset == 0;
}

struct Range {
  std::int64_t first = 0;
  std::int64_t end = 0;
  std::int64_t dim = 0;
};

// The rows to sample: all positions below 2^24, or the rows a fixed-table subject holds.
Range sweep_range(const Subject& subject, const Convention& convention, std::int64_t dim) {
  const SubjectCapabilities capabilities = subject.capabilities();
  if (capabilities.fixed_request) {
    const TableRequest& fixed = *capabilities.fixed_request;
    return {fixed.row_offset, fixed.row_offset + fixed.rows, fixed.dim};
  }
  return {0, max_exact_position - convention.position_offset, dim};
}

}  // namespace

void sweep_accuracy(const Subject& subject, const FigureSettings& settings, const SweepSizes& sizes, FigureData& data) {
  data.ulp.rows_per_block = sizes.rows_per_block;
  for (const Convention& convention : offered_conventions(subject)) {
    const Range range = sweep_range(subject, convention, sizes.ulp_dim);
    data.ulp.dim = range.dim;
    const std::int64_t rows = std::min(sizes.rows_per_block, range.end - range.first);
    const std::vector<std::int64_t> starts = block_starts(range.first, range.end, rows, sizes.ulp_samples);
    if (starts.empty()) {
      data.ulp.skipped.push_back(convention.name + ": the subject holds no rows to sample");
      continue;
    }
    // The reference is the expensive part (a few microseconds per entry):
    // blocks in parallel, each into its own slice. Block i holds rows
    // [i * rows, (i + 1) * rows) of the sweep's table.
    const std::size_t block_entries = static_cast<std::size_t>(rows * range.dim);
    std::vector<DoubleDouble> exact(starts.size() * block_entries);
    parallel_for(starts.size(), settings.threads, [&](std::size_t i) {
      const std::vector<DoubleDouble> block =
          reference::reference_table(convention, {rows, range.dim, starts[i]}, FormatId::float32, 1).exact;
      std::copy(block.begin(), block.end(), exact.begin() + static_cast<std::ptrdiff_t>(i * block_entries));
    });

    const bool angle_twin = has_float32_angle_twin(convention) && !data.angles;
    AngleErrorCurve angles{convention.name, range.dim, {}, {}, {}};
    const std::vector<ColumnSpec> columns = column_layout(convention, range.dim);

    for (FormatId format : {FormatId::float64, FormatId::float32, FormatId::float16, FormatId::bfloat16}) {
      const Format& f = format_of(format);
      const std::string format_name(f.name);
      if (!offers_format(subject, format)) {
        data.ulp.skipped.push_back(convention.name + "/" + format_name + ": the subject does not offer the format");
        continue;
      }
      UlpCurve curve;
      curve.convention = convention.name;
      curve.format = format;
      Table sweep = make_table(static_cast<std::int64_t>(starts.size()) * rows, range.dim, format);
      try {
        for (std::size_t i = 0; i < starts.size(); ++i) {
          const Table computed = subject.encoding_table(convention, {rows, range.dim, starts[i]}, format);
          if (static_cast<std::size_t>(computed.size()) != block_entries) {
            throw SubjectError("asked for " + std::to_string(rows) + " x " + std::to_string(range.dim) +
                               " values, got " + std::to_string(computed.rows) + " x " + std::to_string(computed.cols));
          }
          double block_ulp = std::numeric_limits<double>::quiet_NaN();  // stays NaN if every entry is a typed mismatch
          double block_abs = 0.0;
          for (std::size_t k = 0; k < block_entries; ++k) {
            const DoubleDouble& x = exact[i * block_entries + k];
            const UlpError error = ulp_error(computed.flat(static_cast<std::int64_t>(k)), x, f);
            if (error.mismatch == Mismatch::none)
              block_ulp = std::isnan(block_ulp) ? error.ulps : std::max(block_ulp, error.ulps);
            block_abs = std::max(block_abs, absolute_error(computed.flat(static_cast<std::int64_t>(k)), x));
            sweep.set_flat(static_cast<std::int64_t>(i * block_entries + k), computed.flat(static_cast<std::int64_t>(k)));
          }
          curve.positions.push_back(static_cast<double>(position_of_row(convention, starts[i])));
          curve.max_ulp.push_back(block_ulp);
          curve.max_abs_error.push_back(block_abs);
          if (angle_twin && format == FormatId::float32) angles.subject.push_back(block_abs);
        }
      } catch (const std::exception& e) {  // a subject never crashes the report: said in the notes
        data.ulp.skipped.push_back(convention.name + "/" + format_name + ": " + e.what());
        continue;
      }
      // The whole sweep as one table: row j of it is block j / rows, row j % rows.
      const properties::UlpBudget& budget = properties::ulp_budget(settings.budget_kind, format);
      curve.measurement = properties::measure_accuracy(sweep, exact, convention, {sweep.rows, range.dim, 0},
                                                       budget.max_ulp, std::string(budget.source));
      properties::WorstInput& worst = curve.measurement.worst;
      worst.row = starts[static_cast<std::size_t>(worst.row / rows)] + worst.row % rows;
      worst.position = position_of_row(convention, worst.row);
      data.ulp.curves.push_back(std::move(curve));
    }

    if (angle_twin) {
      for (std::size_t i = 0; i < starts.size(); ++i) {
        double worst = 0.0;
        for (std::int64_t r = 0; r < rows; ++r) {
          const std::int64_t position = position_of_row(convention, starts[i] + r);
          for (std::int64_t c = 0; c < range.dim; ++c) {
            const double value =
                float32_angle_entry(convention, range.dim, columns[static_cast<std::size_t>(c)], position);
            worst = std::max(
                worst, absolute_error(value, exact[i * block_entries + static_cast<std::size_t>(r * range.dim + c)]));
          }
        }
        angles.positions.push_back(static_cast<double>(position_of_row(convention, starts[i])));
        angles.float32_angles.push_back(worst);
      }
      if (angles.subject.size() != angles.positions.size()) angles.subject.clear();  // no float32 from the subject
      data.angles = std::move(angles);
    }
  }
}

}  // namespace pecheck::reports::detail

namespace pecheck::reports {

std::vector<AccuracyTable> accuracy_tables(const FigureData& data, const std::vector<CheckResult>& checks) {
  std::vector<AccuracyTable> tables;
  if (!data.ulp.curves.empty()) {
    AccuracyTable table;
    table.title = "Each convention and format against the correctly rounded reference";
    std::int64_t entries = 0;
    for (const UlpCurve& curve : data.ulp.curves) entries = std::max(entries, curve.measurement.entries);
    table.note = "Each row: " + count_of(entries, "entry", "entries") + " (d = " + std::to_string(data.ulp.dim) + ", " +
                 std::to_string(data.ulp.rows_per_block) +
                 " consecutive rows at each sampled position, log-spaced from the first row to the last row below "
                 "2^24). ULP error is the distance to the exact value in units of the exact value's binade in the "
                 "format; the worst input is the entry with the largest ULP error.";
    for (const UlpCurve& curve : data.ulp.curves) {
      table.rows.push_back({curve.convention, data.ulp.dim, "figure ulp-error-by-position", curve.measurement});
    }
    tables.push_back(std::move(table));
  }
  AccuracyTable measured;
  measured.title = "The checks' measurements";
  measured.note = "Each row is one measurement of one check, over every convention and width it sweeps together.";
  for (const CheckResult& check : checks) {
    for (const properties::Measurement& m : check.outcome.measurements) {
      measured.rows.push_back({"all the check sweeps", 0, check.id, m});
    }
  }
  if (!measured.rows.empty()) tables.push_back(std::move(measured));
  return tables;
}

}  // namespace pecheck::reports
