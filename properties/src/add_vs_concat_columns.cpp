// Where the encoding's energy sits, column by column: the fast columns swing
// through [-1, 1] across positions, the slow ones hardly move. Read against
// the scaled embedding's unit variance per component, this is the "the first
// columns are distorted, the last hardly at all" observation of the
// add-vs-concat question, and why adding behaves like a soft concatenation.
#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "add_vs_concat_checks.hpp"
#include "pecheck/properties/check_ids.hpp"
#include "scaling_support.hpp"

namespace pecheck::properties::add_vs_concat {

namespace {

using scaling_support::format_number;

// The variance over rows of one column, two-pass (mean first): no
// cancellation for the slow columns, whose variance is tiny beside their mean.
double column_variance(const std::vector<double>& values, std::int64_t rows, std::int64_t cols, std::int64_t c) {
  double mean = 0.0;
  for (std::int64_t r = 0; r < rows; ++r) mean += values[static_cast<std::size_t>(r * cols + c)];
  mean /= static_cast<double>(rows);
  double sum = 0.0;
  for (std::int64_t r = 0; r < rows; ++r) {
    const double deviation = values[static_cast<std::size_t>(r * cols + c)] - mean;
    sum += deviation * deviation;
  }
  return sum / static_cast<double>(rows);
}

// The reference column in double: sin or cos of p * w_i with w_i from the
// convention (frequency_value, about 1 ulp) and glibc's sin/cos (below 1 ulp):
// each entry within about 2^-40 of the exact value for p * w below 2^10.
std::vector<double> reference_columns(const Convention& convention, std::int64_t rows, std::int64_t d) {
  const std::vector<ColumnSpec> layout = column_layout(convention, d);
  std::vector<double> values(static_cast<std::size_t>(rows * d), 0.0);
  for (std::int64_t c = 0; c < d; ++c) {
    const ColumnSpec& spec = layout[static_cast<std::size_t>(c)];
    if (spec.kind == ColumnKind::zero) continue;
    const double w = frequency_value(convention, d, spec.frequency_index);
    for (std::int64_t r = 0; r < rows; ++r) {
      const double angle = static_cast<double>(position_of_row(convention, r)) * w;
      values[static_cast<std::size_t>(r * d + c)] = spec.kind == ColumnKind::sin ? std::sin(angle) : std::cos(angle);
    }
  }
  return values;
}

Outcome run_column_energy(const Subject& subject, const RunConfig& config) {
  if (auto no_format = scaling_support::require_formats(subject, false)) return *no_format;
  Outcome outcome;
  const Convention& convention = scaling_support::paper_convention();
  const std::int64_t d = 512;
  const std::int64_t rows = 512;  // positions 0..511
  const std::vector<double> reference = reference_columns(convention, rows, d);
  // float32, float16, bfloat16: the fast path's float64 table is only held to
  // float32 accuracy (fast_encoding.hpp), so a float64 tolerance would be wrong for it.
  for (FormatId id : scaling_support::formats_of(subject, false)) {
    const Format& format = format_of(id);
    const std::string f(format.name);
    const Table table = subject.encoding_table(convention, {rows, d, 0}, id);
    // Tolerance: each entry within 4 units of the format's last place at 1
    // (|v| <= 1, so ulp(v) <= 2^(1-p) = 2u); 4 covers the loosest documented
    // float32 library (SLEEF u35, 3.5 ulp). A column shifted by at most delta
    // per entry changes its variance by at most 2 sigma delta + delta^2 <= 2 delta + delta^2.
    const double delta = 4 * 2 * scaling_support::unit_roundoff(format) + 0x1p-40;
    const double tolerance = 2 * delta + delta * delta;
    double worst = 0.0;
    std::int64_t worst_column = 0;
    Series variance{f, "column (interleaved sin/cos, frequency falling to the right)",
                    "variance of PE over positions 0..511", {}, {}};
    std::int64_t quiet_scaled = 0;    // below 1% of the scaled embedding's component variance, 1
    std::int64_t quiet_unscaled = 0;  // below 1% of the unscaled one, 1/d
    double first_quarter = 0.0;
    double last_quarter = 0.0;
    double total = 0.0;
    for (std::int64_t c = 0; c < d; ++c) {
      const double measured = column_variance(table_doubles(table), rows, d, c);
      const double expected = column_variance(reference, rows, d, c);
      if (std::fabs(measured - expected) > std::fabs(worst)) {
        worst = measured - expected;
        worst_column = c;
      }
      variance.x.push_back(static_cast<double>(c));
      variance.y.push_back(measured);
      quiet_scaled += measured < 0.01 ? 1 : 0;
      quiet_unscaled += measured < 0.01 / static_cast<double>(d) ? 1 : 0;
      total += measured;
      if (c < d / 4) first_quarter += measured;
      if (c >= d - d / 4) last_quarter += measured;
    }
    outcome.cases += rows * d;
    scaling_support::hold_within(
        outcome, per_format(Quantity::column_variance_miss, id),
        f + ": largest deviation of a column's variance from the reference's", worst, {-tolerance, tolerance},
        "column " + std::to_string(worst_column) + "; entries within 4 ulps at 1 (d = 512, positions 0..511)");
    outcome.statistics.push_back(scaling_support::statistic(
        per_format(Quantity::quiet_columns_scaled, id),
        f + ": columns the encoding hardly moves (variance < 1% of the scaled embedding's 1)",
        static_cast<double>(quiet_scaled), std::nullopt, std::nullopt,
        "of 512: there the token passes almost untouched, as in a concatenation"));
    outcome.statistics.push_back(scaling_support::statistic(
        per_format(Quantity::quiet_columns_unscaled, id),
        f + ": columns the encoding hardly moves against an unscaled embedding (variance < 1% of 1/d)",
        static_cast<double>(quiet_unscaled), std::nullopt, std::nullopt, "of 512"));
    outcome.statistics.push_back(scaling_support::statistic(
        per_format(Quantity::first_quarter_share, id),
        f + ": share of the encoding's variance in the first quarter of columns", first_quarter / total));
    outcome.statistics.push_back(scaling_support::statistic(
        per_format(Quantity::last_quarter_share, id),
        f + ": share of the encoding's variance in the last quarter of columns", last_quarter / total));
    outcome.series.push_back(variance);
  }
  (void)config;
  if (outcome.verdict == Verdict::held) {
    outcome.message = "the encoding's variance across positions sits in the first (fast) columns; the last columns "
                      "hardly move, so there the token's components pass as if concatenated";
  }
  return outcome;
}

}  // namespace

const CheckDefinition column_energy_check{
    .id = check_ids::column_energy,
    .family = Family::add_vs_concat,
    .short_claim = "encodingEnergySitsInTheFirstColumns",
    .claim =
        "Across positions 0..511 (d = 512) the encoding's variance per column matches the reference's within the "
        "entries' rounding, and sits in the fast first columns: the last columns vary by less than 1% of the "
        "scaled embedding's unit variance, carrying the token as a concatenation would.",
    .source = "the report's question (c) (the first dimensions are distorted, the last hardly affected)",
    .kind = CheckKind::measurement,
    .catches = {faults::sin_cos_swapped, faults::one_pair_swapped, faults::wrong_layout, faults::timescale_rule,
                faults::offset_by_one, faults::bfloat16_positions, faults::float16_storage, faults::corrupted_row,
                faults::random_init},
    .run = run_column_energy,
};

}  // namespace pecheck::properties::add_vs_concat
