// conformance/accuracy-by-position: the report's headline accuracy table as a
// check with a budget. Every convention the subject offers, every format, at
// blocks of rows log-spaced from the first row to the last below 2^24; one
// Measurement per (convention, format) with its block-by-block profile, and
// beside it the tutorials' float32-angle model measured on the same rows. A
// row beyond its budget fails the check, and so the run.
#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <span>

#include "check_support.hpp"
#include "conformance_checks.hpp"
#include "pecheck/accuracy/accumulator.hpp"
#include "pecheck/accuracy/measure.hpp"
#include "pecheck/properties/accuracy_by_position.hpp"
#include "pecheck/properties/registry.hpp"
#include "pecheck/reference/reference.hpp"
#include "pecheck/ulp.hpp"

namespace pecheck::properties {

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

// The tutorials' float32 entries on the sweep's rows against the exact
// values: the largest absolute error per block (a Series, for the figure),
// and the result rounded to each offered format as a float32-computing
// implementation casting its table would store it: max and RMS ULP per
// format, statistics nothing bounds (the accuracy table's comparison column).
void trace_float32_angles(const Convention& convention, std::int64_t dim, const std::vector<std::int64_t>& starts,
                          std::int64_t rows, const std::vector<DoubleDouble>& exact,
                          const SubjectCapabilities& capabilities, Outcome& outcome) {
  const std::vector<ColumnSpec> columns = column_layout(convention, dim);
  const std::size_t block_entries = static_cast<std::size_t>(rows * dim);
  Series model{
      std::string(float32_angle_model_series) + " (" + convention.name + ")", "position", "max abs error", {}, {}};
  model.key = StatisticKey{Quantity::float32_angle_abs_error, FormatId::float32, dim, 0, convention.name};
  std::vector<FormatId> formats;
  for (FormatId format : {FormatId::float64, FormatId::float32, FormatId::float16, FormatId::bfloat16}) {
    if (support::offers(capabilities, format)) formats.push_back(format);
  }
  // One accumulator per format (no budget: these figures are a comparison).
  std::vector<accuracy::Accumulator> measured;
  for (FormatId format : formats) measured.emplace_back(format, std::numeric_limits<double>::infinity());
  std::vector<double> row_values(static_cast<std::size_t>(dim));
  std::vector<double> rounded(static_cast<std::size_t>(dim));
  for (std::size_t i = 0; i < starts.size(); ++i) {
    double worst = 0.0;
    for (std::int64_t r = 0; r < rows; ++r) {
      const std::int64_t position = position_of_row(convention, starts[i] + r);
      const std::span<const DoubleDouble> x(exact.data() + i * block_entries + static_cast<std::size_t>(r * dim),
                                            static_cast<std::size_t>(dim));
      for (std::int64_t c = 0; c < dim; ++c) {
        const auto k = static_cast<std::size_t>(c);
        row_values[k] = float32_angle_entry(convention, dim, columns[k], position);
        worst = std::max(worst, absolute_error(row_values[k], x[k]));
      }
      for (std::size_t f = 0; f < formats.size(); ++f) {
        const Format& format = format_of(formats[f]);
        for (std::size_t k = 0; k < row_values.size(); ++k) rounded[k] = round_to_format(row_values[k], format);
        measured[f].add_row(starts[i] + r, std::span<const double>(rounded), x);
      }
    }
    model.x.push_back(static_cast<double>(position_of_row(convention, starts[i])));
    model.y.push_back(worst);
  }
  outcome.series.push_back(std::move(model));
  for (std::size_t f = 0; f < formats.size(); ++f) {
    const std::string name(format_of(formats[f]).name);
    const StatisticKey max_key{Quantity::float32_angle_max_ulp, formats[f], dim, 0, convention.name, std::nullopt, 0.0};
    StatisticKey rms_key = max_key;
    rms_key.quantity = Quantity::float32_angle_rms_ulp;
    const std::string note = "the tutorials' float32 angles, rounded to " + name + "; a comparison, not a budget";
    const accuracy::Tally& tally = measured[f].tally();
    outcome.statistics.push_back({name + ": float32 angles (" + convention.name + "), max ULP", tally.max_ulp(),
                                  std::nullopt, std::nullopt, note, max_key});
    const double rms = tally.rms_ulp();
    outcome.statistics.push_back(
        {name + ": float32 angles (" + convention.name + "), RMS ULP", rms, std::nullopt, std::nullopt, note, rms_key});
  }
}

Outcome run_accuracy_by_position(const Subject& subject, const RunConfig& config) {
  const AccuracySweepSize size = accuracy_sweep_size(config);
  const SubjectCapabilities capabilities = subject.capabilities();
  Outcome outcome;
  bool model_traced = false;
  std::array<accuracy::Measurement, 4> every_convention{};  // indexed by FormatId
  for (const support::ConventionWidth& target : support::sweep_targets(capabilities, {size.dim})) {
    const support::RowRange range = support::servable_rows(capabilities, target.convention);
    const std::int64_t rows = std::min(size.rows_per_block, range.end - range.begin);
    const std::vector<std::int64_t> starts = block_starts(range.begin, range.end, rows, size.samples);
    if (starts.empty()) continue;
    const std::size_t block_entries = static_cast<std::size_t>(rows * target.dim);
    // Exact values do not depend on the format: one reference sweep serves all
    // four, so they must be full (2^-100) to measure float64 too.
    std::vector<DoubleDouble> exact;
    exact.reserve(starts.size() * block_entries);
    std::int64_t escalations = 0;  // behind every format's figures alike
    for (std::int64_t start : starts) {
      const reference::ReferenceTable block = reference::reference_table(
          target.convention, {rows, target.dim, start}, FormatId::float32, 1, reference::ExactValues::full);
      exact.insert(exact.end(), block.exact.begin(), block.exact.end());
      escalations += block.escalations;
    }
    for (FormatId format : {FormatId::float64, FormatId::float32, FormatId::float16, FormatId::bfloat16}) {
      if (!support::offers(capabilities, format)) continue;
      accuracy::PositionProfile profile;
      const accuracy::UlpBudget& budget = support::budget_for(subject, format);
      // A third-party entry beyond the ULP budget may still be within the
      // float64-angle bound (angle_allowance.hpp), as in conformance/<format>.
      const accuracy::Float64AngleAllowance allowance(target.convention, target.dim, format);
      const accuracy::Allowance* judged_by =
          budget.kind == accuracy::BudgetKind::third_party ? &allowance : nullptr;
      // Each block apart for the profile, and all of them merged (exactly) for the row.
      accuracy::Accumulator all_blocks(format, budget.max_ulp, judged_by);
      for (std::size_t i = 0; i < starts.size(); ++i) {
        const Table computed = support::fetch_table(subject, capabilities, target.convention,
                                                    TableRequest{rows, target.dim, starts[i]}, format);
        accuracy::Accumulator block(format, budget.max_ulp, judged_by);
        for (std::int64_t r = 0; r < rows; ++r) {
          block.add_row(computed, r, starts[i] + r,
                        std::span<const DoubleDouble>(exact).subspan(
                            i * block_entries + static_cast<std::size_t>(r * target.dim),
                            static_cast<std::size_t>(target.dim)));
        }
        const accuracy::Tally& tally = block.tally();
        profile.positions.push_back(static_cast<double>(position_of_row(target.convention, starts[i])));
        // NaN where the block had only typed mismatches: no ULP figure to plot.
        profile.max_ulp.push_back(tally.measured() > 0 ? tally.max_ulp() : std::numeric_limits<double>::quiet_NaN());
        profile.max_abs_error.push_back(tally.max_abs_error());
        all_blocks.merge(block);
      }
      accuracy::Measurement m = all_blocks.measurement(target.convention, std::string(budget.source), escalations);
      m.convention = target.convention.name;
      m.dim = target.dim;
      m.profile = std::move(profile);
      m.worst.convention = target.convention.name;
      if (m.nearest_zero) m.nearest_zero->convention = target.convention.name;
      accuracy::Measurement part = m;
      part.profile.reset();
      accuracy::merge_measurement(every_convention[static_cast<std::size_t>(format)], part);
      outcome.cases += m.entries;
      if (!accuracy::within_budget(m)) {
        outcome.verdict = Verdict::failed;
        outcome.message += (outcome.message.empty() ? "" : "; ") + target.convention.name + " " + accuracy::summary(m);
      }
      outcome.measurements.push_back(std::move(m));
    }
    if (!model_traced && has_float32_angle_twin(target.convention)) {
      // The tutorials' float32 angles on the same rows: the error a float32
      // angle computation has, for the figure and the table's comparison column.
      model_traced = true;
      trace_float32_angles(target.convention, target.dim, starts, rows, exact, capabilities, outcome);
    }
  }
  // The headline rows: each format over every convention swept, after the
  // per-convention measurements (which the check's details list).
  for (accuracy::Measurement& total : every_convention) {
    if (total.entries == 0) continue;
    total.every_convention = true;
    outcome.measurements.push_back(std::move(total));
  }
  if (outcome.measurements.empty()) return support::not_applicable("the subject holds no rows to sample");
  if (outcome.verdict == Verdict::held) {
    outcome.message = "every convention and format within its ULP budget at " + std::to_string(size.samples) +
                      " log-spaced blocks of " + std::to_string(size.rows_per_block) + " rows up to " +
                      (capabilities.max_position ? "the model's length " + std::to_string(*capabilities.max_position) +
                                                       " (--max-position)"
                                                 : std::string("2^24"));
  }
  return outcome;
}

}  // namespace

AccuracySweepSize accuracy_sweep_size(const RunConfig& config) {
  // The reference costs a few microseconds per entry: the standard sweep is
  // 6 conventions x 64 blocks x 4 rows x 256 columns, about 0.4 million exact values.
  if (config.quick) return {64, 24, 2};
  if (config.full) return {512, 160, 8};
  return {256, 64, 4};
}

const CheckDefinition accuracy_by_position_definition{
    .id = check_ids::accuracy_by_position,
    .family = Family::conformance,
    .short_claim = "everyConventionWithinBudgetAtEveryPosition",
    .claim =
        "Every convention the subject offers, in every format, is within the subject's ULP budget of the "
        "correctly rounded value at blocks of rows log-spaced from the first row to the last below 2^24 (the "
        "report's accuracy table).",
    .source = "the design's accuracy contract; Boost.Math-style accuracy tables (max and RMS ULP, the worst input)",
    .kind = CheckKind::measurement,
    .catches = {faults::sin_cos_swapped, faults::one_pair_swapped, faults::wrong_layout, faults::float32_angles,
                faults::timescale_rule, faults::unzeroed_padding, faults::offset_by_one, faults::bfloat16_positions,
                faults::float16_positions, faults::float16_storage, faults::corrupted_row, faults::random_init},
    .run = run_accuracy_by_position,
};

const Check& accuracy_by_position_check() { return *find_check(check_ids::accuracy_by_position); }

}  // namespace pecheck::properties
