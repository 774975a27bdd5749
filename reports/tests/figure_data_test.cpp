#include "pecheck/reports/figure_data.hpp"

#include <algorithm>
#include <cmath>

#include <gtest/gtest.h>

#include "pecheck/properties/accuracy_by_position.hpp"
#include "pecheck/properties/check_ids.hpp"
#include "pecheck/properties/registry.hpp"
#include "pecheck/reference/reference.hpp"

namespace pecheck::reports {
namespace {

FigureSettings quick() { return {RunMode::quick, 0x5eed}; }

// The checks whose Outcomes carry the energy-ratio and constant-column
// curves, run once on the fast subject at --quick sizes.
const std::vector<CheckResult>& quick_curve_checks() {
  static const std::vector<CheckResult> checks = [] {
    properties::RunConfig config;
    config.quick = true;
    std::vector<CheckResult> results;
    for (std::string_view id : {properties::check_ids::energy_ratio, properties::check_ids::constant_columns_exact}) {
      CheckResult result;
      result.id = id;
      result.outcome = properties::run_check(*properties::find_check(id), *make_fast_subject(), config);
      results.push_back(std::move(result));
    }
    return results;
  }();
  return checks;
}

const FigureData& fast_quick_data() {
  static const FigureData data = [] {
    FigureData computed = compute_figure_data(*make_fast_subject(), quick());
    add_check_curves(computed, quick_curve_checks());
    return computed;
  }();
  return data;
}

// The sweeps split their rows over the hardware's threads; the numbers must
// not depend on which thread took which rows, so a second run is identical.
TEST(FigureData, sameSeedSameNumbersOnASecondRun) {
  const FigureData first = compute_figure_data(*make_fast_subject(), quick());
  const FigureData& second = fast_quick_data();
  ASSERT_EQ(first.ulp.curves.size(), second.ulp.curves.size());
  for (std::size_t i = 0; i < first.ulp.curves.size(); ++i) {
    EXPECT_EQ(first.ulp.curves[i].max_abs_error, second.ulp.curves[i].max_abs_error);
    EXPECT_EQ(first.ulp.curves[i].measurement.rms_ulp, second.ulp.curves[i].measurement.rms_ulp);
  }
}

TEST(FigureData, sweepCoversEveryPresetAndFormatUpTo2To24) {
  const FigureData& data = fast_quick_data();
  EXPECT_EQ(data.ulp.curves.size(), presets().size() * 4);
  EXPECT_TRUE(data.ulp.skipped.empty());
  for (const UlpCurve& curve : data.ulp.curves) {
    ASSERT_FALSE(curve.positions.empty());
    EXPECT_EQ(curve.positions.front(), 0.0);
    EXPECT_EQ(curve.positions.back() + static_cast<double>(data.ulp.rows_per_block),
              static_cast<double>(max_exact_position));
    EXPECT_EQ(curve.measurement.entries,
              static_cast<std::int64_t>(curve.positions.size()) * data.ulp.rows_per_block * data.ulp.dim);
    EXPECT_TRUE(std::is_sorted(curve.positions.begin(), curve.positions.end()));
  }
}

// The fast path's contract (fast_encoding.hpp): within its budget everywhere below 2^24.
TEST(FigureData, fastPathIsWithinItsBudgetAtEverySampledBlock) {
  for (const UlpCurve& curve : fast_quick_data().ulp.curves) {
    EXPECT_EQ(curve.measurement.mismatches, 0) << curve.convention;
    EXPECT_LE(curve.measurement.max_ulp, curve.measurement.budget_ulp)
        << curve.convention << " " << format_of(curve.format).name;
    for (double block : curve.max_ulp) EXPECT_LE(block, curve.measurement.max_ulp);
  }
}

TEST(FigureData, float32AnglesLoseAccuracyWherePecheckDoesNot) {
  const FigureData& data = fast_quick_data();
  ASSERT_TRUE(data.angles);
  const AngleErrorCurve& angles = *data.angles;
  ASSERT_EQ(angles.subject.size(), angles.positions.size());
  // The subject is within 1 float32 ULP of values in [-1, 1]: at most 2^-23.
  for (double error : angles.subject) EXPECT_LE(error, 0x1.0p-23);
  // Near 2^24 the float32 angle p * w has an ulp of 1 radian for w near 1, so
  // some column is off by far more than 1e-2 (the fixed sample makes this
  // deterministic, not probable).
  EXPECT_GT(angles.float32_angles.back(), 1e-2);
}

// The figure's curve is the energy-ratio check's width sweep, read by key:
// each point is the check's statistic, held by the check to a 10^-9
// chi-square interval around 2 (scaled) and 2/d (unscaled).
TEST(FigureData, energyRatioCurveIsTheChecksWidthSweep) {
  const properties::Outcome& outcome = quick_curve_checks()[0].outcome;
  EXPECT_EQ(outcome.verdict, properties::Verdict::held) << outcome.message;
  ASSERT_TRUE(fast_quick_data().energy);
  const EnergyRatioCurve& energy = *fast_quick_data().energy;
  ASSERT_EQ(energy.dims.front(), 8.0);
  for (std::size_t i = 0; i < energy.dims.size(); ++i) {
    const auto d = static_cast<std::int64_t>(energy.dims[i]);
    const properties::Statistic& scaled = properties::require_statistic(
        outcome, properties::at_width(properties::Quantity::energy_ratio_scaled_at_width, FormatId::float32, d));
    const properties::Statistic& unscaled = properties::require_statistic(
        outcome, properties::at_width(properties::Quantity::energy_ratio_unscaled_at_width, FormatId::float32, d));
    EXPECT_EQ(energy.with_scale[i], scaled.value);
    EXPECT_EQ(energy.without_scale[i], unscaled.value);
    ASSERT_TRUE(scaled.lower_bound && scaled.upper_bound && unscaled.lower_bound && unscaled.upper_bound);
    EXPECT_TRUE(*scaled.lower_bound <= 2.0 && 2.0 <= *scaled.upper_bound) << "d = " << d;
    EXPECT_TRUE(*unscaled.lower_bound <= 2.0 / energy.dims[i] && 2.0 / energy.dims[i] <= *unscaled.upper_bound);
  }
}

TEST(SlowColumns, countsFallWithTheRangeAndRiseAsPrecisionFalls) {
  const SlowColumnCurve& slow = *fast_quick_data().slow_columns;
  ASSERT_EQ(slow.formats, (std::vector<FormatId>{FormatId::float32, FormatId::float16, FormatId::bfloat16}));
  for (std::size_t k = 0; k < slow.range_ends.size(); ++k) {
    if (k > 0) {
      for (std::size_t f = 0; f < slow.formats.size(); ++f) EXPECT_LE(slow.counts[f][k], slow.counts[f][k - 1]);
    }
    EXPECT_LE(slow.counts[0][k], slow.counts[1][k]);  // float32 <= float16
    EXPECT_LE(slow.counts[1][k], slow.counts[2][k]);  // float16 <= bfloat16
  }
  // Over all 2^24 positions every column turns past pi/2: none stays constant.
  for (std::size_t f = 0; f < slow.formats.size(); ++f) EXPECT_EQ(slow.counts[f].back(), 0.0);
  // Over positions 0 and 1, bfloat16 rounds cos(w) to 1 for every w below 2^-4.
  EXPECT_GT(slow.counts[2].front(), 0.0);
}

// The monotonicity shortcut against the definition: every row of the
// correctly rounded table over [0, 64), column by column.
TEST(SlowColumns, agreeWithABruteForceCountOverTheFirst64Positions) {
  const SlowColumnCurve& slow = *fast_quick_data().slow_columns;
  const Convention convention = *find_preset(slow.convention);
  const std::size_t k = 5;  // P = 2^6
  ASSERT_EQ(slow.range_ends[k], 64.0);
  for (std::size_t f = 0; f < slow.formats.size(); ++f) {
    const Table table = reference::reference_table(convention, {64, slow.dim, 0}, slow.formats[f], 1).rounded;
    int constant = 0;
    for (std::int64_t c = 0; c < slow.dim; ++c) {
      bool same = true;
      for (std::int64_t r = 1; r < 64; ++r) same = same && table.at(r, c) == table.at(0, c);
      constant += same;
    }
    EXPECT_EQ(slow.counts[f][k], constant) << format_of(slow.formats[f]).name;
  }
}

// A subject that holds one table (a file): the sweep stays inside its rows.
class OneTableSubject : public ForwardingSubject {
 public:
  OneTableSubject() : ForwardingSubject(std::shared_ptr<const Subject>(make_fast_subject()), "one table") {}
  SubjectCapabilities capabilities() const override {
    SubjectCapabilities c;
    c.any_convention = false;
    c.fixed_convention = *find_preset("vaswani");
    c.fixed_request = TableRequest{1000, 32, 5000};
    c.formats = {FormatId::float32};
    return c;
  }
  Table encoding_table(const Convention& convention, const TableRequest& request, FormatId format) const override {
    const TableRequest fixed = *capabilities().fixed_request;
    if (request.dim != fixed.dim || request.row_offset < fixed.row_offset ||
        request.row_offset + request.rows > fixed.row_offset + fixed.rows) {
      throw SubjectError("rows outside the table");
    }
    return ForwardingSubject::encoding_table(convention, request, format);
  }
};

TEST(FigureData, aOneTableSubjectIsSweptWithinItsRowsAndTheRestIsNoted) {
  const FigureData data = compute_figure_data(OneTableSubject{}, quick());
  ASSERT_EQ(data.ulp.curves.size(), 1u);
  const UlpCurve& curve = data.ulp.curves.front();
  EXPECT_EQ(curve.format, FormatId::float32);
  EXPECT_EQ(curve.positions.front(), 5000.0);
  EXPECT_LE(curve.positions.back() + static_cast<double>(data.ulp.rows_per_block), 6000.0);
  EXPECT_EQ(data.ulp.skipped.size(), 3u);  // float64, float16, bfloat16
  EXPECT_FALSE(data.energy);
  EXPECT_FALSE(data.notes.empty());
  ASSERT_EQ(data.encoding_maps.size(), 1u);
  EXPECT_EQ(data.encoding_maps.front().second.row_origin, 5000.0);
}

// The headline table is conformance/accuracy-by-position's Outcome: one row
// per format over every convention, each the merge of that format's
// per-convention measurements, with the float32-angle comparison beside it.
TEST(AccuracyTables, oneRowPerFormatFromTheAccuracyCheck) {
  properties::RunConfig config;
  config.quick = true;
  CheckResult accuracy;
  accuracy.id = properties::accuracy_by_position_id;
  accuracy.outcome = properties::run_check(properties::accuracy_by_position_check(), *make_fast_subject(), config);
  const std::vector<AccuracyTable> tables = accuracy_tables(fast_quick_data(), {accuracy});
  ASSERT_EQ(tables.size(), 1u);
  ASSERT_EQ(tables[0].rows.size(), 4u);
  for (const AccuracyRow& row : tables[0].rows) {
    const accuracy::Measurement& m = row.measurement;
    EXPECT_TRUE(m.every_convention);
    std::int64_t entries = 0;
    double max_ulp = 0.0;
    for (const accuracy::Measurement& part : accuracy.outcome.measurements) {
      if (part.every_convention || part.format != m.format) continue;
      entries += part.entries;
      max_ulp = std::max(max_ulp, part.max_ulp);
    }
    EXPECT_EQ(m.entries, entries);
    EXPECT_EQ(m.max_ulp, max_ulp);
    EXPECT_FALSE(m.worst.convention.empty());
    ASSERT_TRUE(m.nearest_zero);
    EXPECT_GT(std::fabs(m.nearest_zero->exact.hi), 0.0);
    // float32 angles are far worse than the fast path in float64 and float32.
    ASSERT_TRUE(row.float32_angles_max_ulp);
    if (m.format == FormatId::float64 || m.format == FormatId::float32) {
      EXPECT_GT(*row.float32_angles_max_ulp, 100.0 * m.max_ulp) << format_of(m.format).name;
    }
  }
  EXPECT_TRUE(accuracy_tables(fast_quick_data(), {}).empty()) << "no check, no table";
}

// Every value in a figure's table is one of its plotted points, or a budget
// or largest error the accuracy sweep measured.
bool plotted(const Figure& figure, double value) {
  for (const Panel& panel : figure.panels) {
    for (const Series& series : panel.series) {
      if (std::find(series.y.begin(), series.y.end(), value) != series.y.end()) return true;
    }
  }
  return false;
}

TEST(Figures, everyFigureHasDataACaptionAndItsNumbersInItsTable) {
  const FigureData& data = fast_quick_data();
  const std::vector<Figure> figures = build_figures(fast_quick_data(), {});
  std::vector<std::string> ids;
  for (const Figure& figure : figures) {
    ids.push_back(figure.id);
    EXPECT_FALSE(figure.panels.empty()) << figure.id;
    EXPECT_FALSE(figure.caption.empty()) << figure.id;
    EXPECT_FALSE(figure.sources.empty()) << figure.id;
    EXPECT_EQ(figure.numbers.empty(), figure.id == "encoding-map") << figure.id;
    for (const FigureNumber& number : figure.numbers) {
      bool measured = plotted(figure, number.value);
      for (const UlpCurve& curve : data.ulp.curves) {
        measured = measured || number.value == curve.measurement.max_ulp || number.value == curve.measurement.budget_ulp;
      }
      EXPECT_TRUE(measured) << figure.id << ": " << number.label << " = " << number.text << " is not in the data";
      EXPECT_FALSE(number.text.empty()) << figure.id << ": " << number.label;
    }
    for (const Panel& panel : figure.panels) {
      EXPECT_TRUE(panel.heatmap || !panel.series.empty()) << figure.id;
      EXPECT_FALSE(panel.x.label.empty());
      EXPECT_FALSE(panel.y.label.empty());
    }
  }
  EXPECT_EQ(ids, (std::vector<std::string>{"ulp-error-by-position", "float32-angles", "encoding-map", "energy-ratio",
                                           "slow-columns"}));
}

TEST(Figures, aChecksSeriesBecomeAFigureWithOnePanelPerQuantity) {
  CheckResult check;
  check.id = properties::check_ids::token_recoverability;
  check.claim = "Tokens are recovered.";
  check.outcome.message = "all recovered";
  check.outcome.series = {{"float32, position unknown", "a", "tokens recovered", {0.0, 0.5}, {0.125, 1.0}},
                          {"bfloat16, position unknown", "a", "tokens recovered", {0.0, 0.5}, {0.0625, 1.0}},
                          {"float32 bound", "a", "tokens recovered", {0.0, 0.5}, {0.0, 0.9}},
                          {"float32", "a", "residual", {0.0, 0.5}, {1e-3, 1e-7}}};
  const std::vector<Figure> figures = build_figures(FigureData{}, {check});
  ASSERT_EQ(figures.size(), 1u);
  const Figure& figure = figures.front();
  EXPECT_EQ(figure.id, "scaling-variance-token-recoverability");
  ASSERT_EQ(figure.panels.size(), 2u);
  EXPECT_EQ(figure.panels[0].series.size(), 3u);
  EXPECT_TRUE(figure.panels[0].series[2].dashed);
  EXPECT_EQ(figure.panels[0].y.scale, AxisScale::linear);  // 0 cannot go on a log axis
  EXPECT_EQ(figure.panels[1].y.scale, AxisScale::log);     // four decades
  // The first panel's curves at both ends, in the table; the bound is a curve too.
  ASSERT_GE(figure.numbers.size(), 2u);
  EXPECT_EQ(figure.numbers[0].label, "float32, position unknown");
  EXPECT_EQ(figure.numbers[0].column, "a = 0");
  EXPECT_EQ(figure.numbers[0].value, 0.125);
  EXPECT_EQ(figure.numbers[1].label, "float32, position unknown");
  EXPECT_EQ(figure.numbers[1].column, "a = 0.5");
  EXPECT_EQ(figure.numbers[1].text, "1");
  EXPECT_EQ(figure.caption, check.claim);
}

// The recovery sweep's figure: a log axis of s, and s = sqrt(d) marked at the
// width the check's statistics were filed at (here 256, so 16), not a constant.
TEST(Figures, theRecoverySweepIsDrawnOnALogAxisOfSWithSqrtDMarked) {
  CheckResult check;
  check.id = properties::check_ids::recovery_sweep;
  check.claim = "Recovered.";
  properties::Statistic naive{
      "label", 0.1, {},
      {},      "",  properties::at_width(properties::Quantity::recovered_token_naive, FormatId::float32, 256)};
  check.outcome.statistics = {naive};
  check.outcome.series = {{"token, naive", "s", "recovered", {1.0, 16.0, 256.0}, {0.1, 0.99, 1.0}},
                          {"position, naive", "s", "recovered", {1.0, 16.0, 256.0}, {1.0, 0.9, 0.01}}};
  const std::vector<Figure> figures = build_figures(FigureData{}, {check});
  ASSERT_EQ(figures.size(), 1u);
  const Figure& figure = figures.front();
  EXPECT_EQ(figure.id, "scaling-variance-recovery-sweep");
  ASSERT_EQ(figure.panels.size(), 1u);
  EXPECT_EQ(figure.panels[0].x.scale, AxisScale::log);
  ASSERT_EQ(figure.panels[0].series.size(), 3u);
  const Series& marker = figure.panels[0].series.back();
  EXPECT_TRUE(marker.dashed);
  EXPECT_EQ(marker.x, (std::vector<double>{16.0, 16.0}));
  std::vector<std::string> rows;
  for (const FigureNumber& number : figure.numbers) rows.push_back(number.label + ", " + number.column + ": " + number.text);
  EXPECT_EQ(rows, (std::vector<std::string>{"token, naive, s = 1: 0.1", "token, naive, s = 16: 0.99",
                                            "token, naive, s = 256: 1", "position, naive, s = 1: 1",
                                            "position, naive, s = 16: 0.9", "position, naive, s = 256: 0.01"}));
}

TEST(Figures, slowColumnCountsFromTheBoundsCheckAreOverlaid) {
  const SlowColumnCurve& slow = *fast_quick_data().slow_columns;
  CheckResult check;
  check.id = properties::check_ids::slow_columns;
  // Found by key, whatever the label says: the count at the figure's width
  // and convention is drawn, one at another width or convention is not.
  const auto count = [&](double value, std::int64_t dim, std::string convention) {
    return properties::Statistic{
        "any label",  value,
        std::nullopt, std::nullopt,
        "",           {properties::Quantity::constant_columns, FormatId::bfloat16, dim, 512, std::move(convention)}};
  };
  check.outcome.statistics.push_back(count(17.0, slow.dim, slow.convention));
  check.outcome.statistics.push_back(count(3.0, 7, slow.convention));
  check.outcome.statistics.push_back(count(5.0, slow.dim, "other"));
  for (const Figure& figure : build_figures(fast_quick_data(), {check})) {
    if (figure.id != "slow-columns") continue;
    const Series& overlay = figure.panels.front().series.back();
    EXPECT_EQ(overlay.x, std::vector<double>{512.0});
    EXPECT_EQ(overlay.y, std::vector<double>{17.0});
  }
}

}  // namespace
}  // namespace pecheck::reports
