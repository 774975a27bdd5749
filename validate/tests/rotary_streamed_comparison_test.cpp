// The rotary cache's comparison (compare_rotary_cache: the reference row by
// row, both targets in one pass, rows the double tier settles whole handed on
// as plain doubles, float32 rows read in their own type, one accumulator per
// worker and target) prints what the
// entry-by-entry route prints: every exact value of the reference cache
// (rotary_reference_cache, each entry through the row evaluator's per-entry
// results) into one accumulator, row after row, values as doubles. The same
// counts, histogram, maximum, RMS, worst entries and allowance figures, bit
// for bit, for every rotary rule, against the exact encoding and the
// hf-float32 model, in float32 (near 0 and at 2^20, with a NaN and a changed
// value) and bfloat16; and the same figures but the histogram when the
// comparison leaves its histograms out.
#include <gtest/gtest.h>

#include <cmath>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "../src/rotary_comparison.hpp"
#include "pecheck/accuracy/accumulator.hpp"
#include "pecheck/accuracy/libm_allowance.hpp"
#include "pecheck/accuracy/measure.hpp"
#include "pecheck/reference/rotary_reference.hpp"
#include "pecheck/rotary_cache.hpp"
#include "pecheck/testing/presets.hpp"

namespace pecheck::validate {
namespace {

constexpr double budget_ulp = 2.0;

void expect_same_input(const accuracy::WorstInput& a, const accuracy::WorstInput& b) {
  EXPECT_EQ(a.row, b.row);
  EXPECT_EQ(a.position, b.position);
  EXPECT_EQ(a.column, b.column);
  EXPECT_EQ(a.value_hex, b.value_hex);
  EXPECT_EQ(a.exact.hi, b.exact.hi);
  EXPECT_EQ(a.exact.lo, b.exact.lo);
  EXPECT_EQ(a.exact_text, b.exact_text);
  EXPECT_EQ(a.abs_error, b.abs_error);
  EXPECT_EQ(a.ulps, b.ulps);
}

// `cols` columns per table.
void expect_same(const accuracy::Measurement& streamed, const accuracy::Measurement& entries, std::int64_t cols) {
  EXPECT_EQ(streamed.entries, entries.entries);
  EXPECT_EQ(streamed.mismatches, entries.mismatches);
  EXPECT_EQ(streamed.beyond_budget, entries.beyond_budget);
  EXPECT_EQ(streamed.max_ulp, entries.max_ulp);
  EXPECT_EQ(streamed.max_abs_error, entries.max_abs_error);
  // The same squares, each row's summed in a fixed order and the rows
  // order-free (exactly, then rounded once), but the streamed comparison
  // sums a row whose twin columns are equal as its distinct half counted
  // twice (TwinColumns): another order. A row sum of m non-negative terms in
  // any order is within gamma_(m-1) = (m-1)u / (1 - (m-1)u) of the exact sum
  // (u = 2^-53; Higham, Accuracy and Stability, 4.2), so the two totals of S
  // differ by at most (gamma_(2c-1) + gamma_(c-1) + 2u) S for c columns a
  // table (rows of 2c and c entries, and the final roundings); the square
  // root halves that, and divides and roots add 2u each side: within
  // (3c + 4)u of the RMS, with room for the gammas' denominators.
  const double u = 0x1p-53;
  const double tolerance = (3.0 * static_cast<double>(cols) + 4.0) * u * entries.rms_ulp;
  EXPECT_LE(std::fabs(streamed.rms_ulp - entries.rms_ulp), tolerance)
      << "RMS " << streamed.rms_ulp << " against " << entries.rms_ulp << ", tolerance " << tolerance;
  EXPECT_EQ(streamed.ulp_histogram.counts, entries.ulp_histogram.counts);
  if (entries.entries > entries.mismatches) expect_same_input(streamed.worst, entries.worst);
  ASSERT_EQ(streamed.nearest_zero.has_value(), entries.nearest_zero.has_value());
  if (entries.nearest_zero) expect_same_input(*streamed.nearest_zero, *entries.nearest_zero);
  ASSERT_EQ(streamed.abs_bound.has_value(), entries.abs_bound.has_value());
  if (entries.abs_bound) {
    EXPECT_EQ(streamed.abs_bound->beyond_ulp, entries.abs_bound->beyond_ulp);
    EXPECT_EQ(streamed.abs_bound->beyond_bound, entries.abs_bound->beyond_bound);
    EXPECT_EQ(streamed.abs_bound->worst_ratio, entries.abs_bound->worst_ratio);
    EXPECT_EQ(streamed.abs_bound->worst_ulp, entries.abs_bound->worst_ulp);
    EXPECT_EQ(streamed.abs_bound->worst_bound, entries.abs_bound->worst_bound);
    if (entries.abs_bound->beyond_ulp > 0) expect_same_input(streamed.abs_bound->worst, entries.abs_bound->worst);
  }
}

// The entry-by-entry route.
accuracy::Measurement entry_by_entry(const RotaryCache& cache, FormatId format, const RotaryConvention& c,
                                     std::int64_t first, const std::optional<ComputationModel>& model) {
  const std::int64_t cols = cache.cos.cols;
  const reference::RotaryReferenceCache exact = reference::rotary_reference_cache(
      c, {first, cache.cos.rows, format}, model, 1, reference::ExactValues::for_format);
  std::optional<accuracy::LibmAllowance> allowance;
  if (model) allowance.emplace(c, *model, first, cols);
  accuracy::Accumulator accumulator(format, budget_ulp, allowance ? &*allowance : nullptr, accuracy::SignedZero::equal);
  const auto n = static_cast<std::size_t>(cols);
  std::vector<double> values(2 * n);
  std::vector<DoubleDouble> exact_row(2 * n);
  for (std::int64_t r = 0; r < cache.cos.rows; ++r) {
    for (std::size_t k = 0; k < n; ++k) {
      const auto col = static_cast<std::int64_t>(k);
      const std::size_t e = static_cast<std::size_t>(r) * n + k;
      values[k] = cache.cos.at(r, col);
      values[n + k] = cache.sin.at(r, col);
      exact_row[k] = exact.exact_cos[e];
      exact_row[n + k] = exact.exact_sin[e];
    }
    accumulator.add_row(r, std::span<const double>(values), std::span<const DoubleDouble>(exact_row));
  }
  accuracy::Measurement m = accumulator.measurement([&](std::int64_t row) { return first + row; }, "budget", 0);
  accuracy::refine_worst_exact(m, [&](const accuracy::WorstInput& w) {
    const bool cosine = w.column < cols;
    return reference::rotary_exact_value(c, w.position, rotary_column_frequency(c, cosine ? w.column : w.column - cols),
                                         cosine, model);
  });
  return m;
}

TEST(RotaryStreamedComparison, everyRuleAndTargetAsEntryByEntry) {
  const std::optional<ComputationModel> hf = find_computation_model("hf-float32");
  ASSERT_TRUE(hf.has_value());
  std::int64_t compared = 0;
  for (const RotaryConvention& c : testing::every_rotary_rule()) {
    for (const RotaryCacheRequest request : {RotaryCacheRequest{0, 40, FormatId::float32},
                                             RotaryCacheRequest{std::int64_t{1} << 20, 24, FormatId::float32},
                                             RotaryCacheRequest{3, 24, FormatId::bfloat16}}) {
      RotaryCache cache = fast_rotary_cache(c, request);
      if (request.first_position == 0) {
        // A value one ULP off, and a NaN: a worst entry and a mismatch of the caller's making.
        cache.cos.set(5, 3, std::nextafter(static_cast<float>(cache.cos.at(5, 3)), 2.0F));
        cache.sin.set(7, 0, std::nan(""));
      }
      // Both targets in one pass, as validate compares them.
      const std::optional<ComputationModel> targets[] = {std::nullopt, hf};
      const std::vector<Comparison> streamed =
          compare_rotary_cache(cache.cos, cache.sin, request.format, c, request.first_position, targets, budget_ulp,
                               "budget", 2, accuracy::HistogramCounting::counted);
      // And without the histograms (`pecheck validate` without a report):
      // every other figure the same, the RMS's bits too (the same squares in
      // the same order), no histogram.
      const std::vector<Comparison> without =
          compare_rotary_cache(cache.cos, cache.sin, request.format, c, request.first_position, targets, budget_ulp,
                               "budget", 2, accuracy::HistogramCounting::left_out);
      ASSERT_EQ(streamed.size(), 2U);
      ASSERT_EQ(without.size(), 2U);
      for (std::size_t t = 0; t < 2; ++t) {
        const std::optional<ComputationModel>& model = targets[t];
        SCOPED_TRACE(c.name + " " + (model ? model->name : std::string("exact")) + " from " +
                     std::to_string(request.first_position) + " " + std::string(format_of(request.format).name));
        EXPECT_EQ(streamed[t].target, model ? "the computation model " + model->name : "the exact encoding");
        accuracy::Measurement entries = entry_by_entry(cache, request.format, c, request.first_position, model);
        expect_same(streamed[t].measurement, entries, cache.cos.cols);
        EXPECT_EQ(without[t].beyond_budget, streamed[t].beyond_budget);
        EXPECT_EQ(without[t].conforms, streamed[t].conforms);
        EXPECT_EQ(without[t].measurement.rms_ulp, streamed[t].measurement.rms_ulp);
        EXPECT_TRUE(without[t].measurement.ulp_histogram.upper_edges.empty());
        entries.ulp_histogram = {};
        expect_same(without[t].measurement, entries, cache.cos.cols);
        if (HasFailure()) return;
        ++compared;
      }
    }
  }
  EXPECT_GT(compared, 50);
}

}  // namespace
}  // namespace pecheck::validate
