// A sweep's statistics merge exactly: rows of several widths split into
// parts, merged in any order, give the statistics of one pass, ties in
// "worst" included (the accumulator's own tests hold the rest).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <random>
#include <vector>

#include "pecheck/sweep/statistics.hpp"

namespace pecheck::sweep {
namespace {

// A row of float32 values `offset` float32 ulps from their exact values'
// nearest floats: errors repeat across rows and widths (ties for "worst").
struct Row {
  std::int64_t dim;
  std::int64_t row;
  std::vector<float> values;
  std::vector<DoubleDouble> exact;
};

std::vector<Row> synthetic_rows() {
  std::mt19937_64 random(42);
  std::uniform_int_distribution<int> offset(-3, 3);
  std::vector<Row> rows;
  for (std::int64_t dim : {8, 12}) {
    for (std::int64_t row = 0; row < 30; ++row) {
      Row r{dim, row, {}, {}};
      for (std::int64_t column = 0; column < dim; ++column) {
        const double exact = 0.25 + 0.01 * static_cast<double>(column);
        const auto nearest = static_cast<float>(exact);
        r.values.push_back(std::nextafter(nearest, offset(random) < 0 ? 0.0f : 1.0f));
        r.exact.push_back({exact, 0.0});
      }
      rows.push_back(r);
    }
  }
  rows.back().values[1] = std::nanf("");
  return rows;
}

SweepStatistics pass(const std::vector<Row>& rows) {
  accuracy::Accumulator accumulator(FormatId::float32, 1.0);
  for (const Row& r : rows) {
    accumulator.add_row(r.row, std::span<const float>(r.values), std::span<const DoubleDouble>(r.exact), r.dim);
  }
  return {accumulator.tally(), 0};
}

TEST(SweepStatistics, anySplitOfTheRowsMergedInAnyOrderEqualsOnePass) {
  const std::vector<Row> rows = synthetic_rows();
  const SweepStatistics whole = pass(rows);
  ASSERT_EQ(whole.tally.mismatches, 1);
  std::mt19937_64 random(5);
  for (int trial = 0; trial < 20; ++trial) {
    std::vector<std::size_t> cuts = {0, rows.size()};
    for (int k = 0; k < trial % 6; ++k) cuts.push_back(random() % rows.size());
    std::sort(cuts.begin(), cuts.end());
    std::vector<SweepStatistics> parts;
    for (std::size_t k = 0; k + 1 < cuts.size(); ++k) {
      parts.push_back(pass(std::vector<Row>(rows.begin() + static_cast<std::ptrdiff_t>(cuts[k]),
                                            rows.begin() + static_cast<std::ptrdiff_t>(cuts[k + 1]))));
      parts.back().escalations = 1;
    }
    std::shuffle(parts.begin(), parts.end(), random);
    SweepStatistics merged;
    for (const SweepStatistics& part : parts) merge_into(merged, part);
    SweepStatistics expected = whole;
    expected.escalations = static_cast<std::int64_t>(parts.size());
    EXPECT_EQ(merged, expected) << "trial " << trial;
  }
}

TEST(SweepStatistics, aTieForTheWorstGoesToTheSmallestWidthRowAndColumn) {
  const std::vector<Row> rows = synthetic_rows();
  const SweepStatistics whole = pass(rows);
  EXPECT_EQ(pass(std::vector<Row>(rows.rbegin(), rows.rend())), whole);
  ASSERT_TRUE(whole.tally.worst);
  for (const Row& r : rows) {
    for (std::size_t c = 0; c < r.values.size(); ++c) {
      const UlpError e = ulp_error(r.values[c], r.exact[c], format_of(FormatId::float32));
      if (e.mismatch != Mismatch::none || e.ulps != whole.tally.worst->error.ulps) continue;
      EXPECT_LE(whole.tally.worst->key, (accuracy::EntryKey{r.dim, r.row, static_cast<std::int64_t>(c)}));
    }
  }
}

TEST(SweepStatistics, aTypedMismatchFailsTheSweep) {
  const std::vector<Row> rows = synthetic_rows();
  const SweepStatistics whole = pass(rows);
  EXPECT_FALSE(whole.held());
  ASSERT_TRUE(whole.tally.first_mismatch);
  EXPECT_EQ(whole.tally.first_mismatch->key, (accuracy::EntryKey{12, 29, 1}));
}

TEST(SweepStatistics, countsTheEntriesBeyondTheBudget) {
  const std::vector<Row> rows = synthetic_rows();
  std::int64_t beyond = 0;
  for (const Row& r : rows) {
    for (std::size_t c = 0; c < r.values.size(); ++c) {
      const UlpError e = ulp_error(r.values[c], r.exact[c], format_of(FormatId::float32));
      beyond += e.mismatch == Mismatch::none && e.ulps > 1.0 ? 1 : 0;
    }
  }
  ASSERT_GT(beyond, 0);  // a step of one ulp from the nearest float is beyond 1 ULP about half the time
  EXPECT_EQ(pass(rows).tally.beyond_budget, beyond);
}

}  // namespace
}  // namespace pecheck::sweep
