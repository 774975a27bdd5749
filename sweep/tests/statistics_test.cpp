// The statistics merge exactly: any split of the entries into parts, merged
// in any order, gives the statistics of one pass, ties in "worst" included.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <random>
#include <vector>

#include "pecheck/sweep/statistics.hpp"

namespace pecheck::sweep {
namespace {

const Format& f32 = format_of(FormatId::float32);

// Entries with repeated errors at different keys (ties for "worst"), a NaN
// and a signed-zero mismatch, and errors beyond a 1 ULP budget.
std::vector<SweepEntry> synthetic_entries() {
  std::mt19937_64 random(42);
  std::uniform_int_distribution<int> offset(-3, 3);
  std::vector<SweepEntry> entries;
  for (std::int64_t row = 0; row < 40; ++row) {
    for (std::int64_t column = 0; column < 8; ++column) {
      const double exact = 0.25 + 0.01 * static_cast<double>(column);
      // The value is `offset` float32 ulps from exact's nearest float32: errors repeat across keys.
      const double nearest = static_cast<double>(static_cast<float>(exact));
      const double value = nearest + offset(random) * std::ldexp(1.0, -25);
      entries.push_back(compare_entry({8, row, column}, row, value, {exact, 0.0}, f32));
    }
  }
  entries.push_back(compare_entry({8, 40, 0}, 40, std::nan(""), {0.5, 0.0}, f32));
  entries.push_back(compare_entry({8, 40, 1}, 40, -0.0, {0.0, 0.0}, f32));
  return entries;
}

SweepStatistics one_pass(const std::vector<SweepEntry>& entries) {
  SweepStatistics s;
  for (const SweepEntry& e : entries) record(s, e, 1.0);
  return s;
}

TEST(SweepStatistics, anySplitMergedInAnyOrderEqualsOnePass) {
  const std::vector<SweepEntry> entries = synthetic_entries();
  const SweepStatistics whole = one_pass(entries);
  ASSERT_GT(whole.beyond_budget, 0);
  ASSERT_EQ(whole.mismatches, 2);
  std::mt19937_64 random(5);
  for (int trial = 0; trial < 20; ++trial) {
    // Cut the entries at random points, then merge the parts in a random order.
    std::vector<std::size_t> cuts = {0, entries.size()};
    for (int k = 0; k < trial % 6; ++k) cuts.push_back(random() % entries.size());
    std::sort(cuts.begin(), cuts.end());
    std::vector<SweepStatistics> parts;
    for (std::size_t k = 0; k + 1 < cuts.size(); ++k) {
      parts.push_back(one_pass(std::vector<SweepEntry>(entries.begin() + static_cast<std::ptrdiff_t>(cuts[k]),
                                                       entries.begin() + static_cast<std::ptrdiff_t>(cuts[k + 1]))));
    }
    std::shuffle(parts.begin(), parts.end(), random);
    SweepStatistics merged;
    for (const SweepStatistics& part : parts) merge_into(merged, part);
    EXPECT_EQ(merged, whole) << "trial " << trial;
  }
}

TEST(SweepStatistics, aTieForTheWorstGoesToTheSmallestKey) {
  const std::vector<SweepEntry> entries = synthetic_entries();
  const SweepStatistics whole = one_pass(entries);
  std::vector<SweepEntry> reversed(entries.rbegin(), entries.rend());
  EXPECT_EQ(one_pass(reversed), whole);
  for (const SweepEntry& e : entries) {
    if (e.error.mismatch != Mismatch::none) continue;
    EXPECT_LE(e.error.ulps, whole.worst_ulp->error.ulps);
    if (e.error.ulps == whole.worst_ulp->error.ulps) {
      EXPECT_LE(whole.worst_ulp->key, e.key);
    }
  }
}

TEST(SweepStatistics, typedMismatchesAreCountedApartFromTheUlpFigures) {
  SweepStatistics s;
  record(s, compare_entry({4, 0, 0}, 0, 0.5, {0.5, 0.0}, f32), 1.0);
  record(s, compare_entry({4, 0, 1}, 0, std::nan(""), {0.5, 0.0}, f32), 1.0);
  EXPECT_EQ(s.entries, 2);
  EXPECT_EQ(s.mismatches, 1);
  EXPECT_EQ(s.measured(), 1);
  EXPECT_EQ(s.rms_ulp(), 0.0);
  EXPECT_FALSE(s.held());
  ASSERT_TRUE(s.first_mismatch.has_value());
  EXPECT_EQ(s.first_mismatch->key, (EntryKey{4, 0, 1}));
}

TEST(SweepStatistics, anEntryBeyondTheBudgetFailsIt) {
  SweepStatistics s;
  const double ulp = std::ldexp(1.0, -25);  // float32 ulp at 0.25..0.5
  record(s, compare_entry({4, 3, 2}, 3, 0.25 + 2 * ulp, {0.25, 0.0}, f32), 1.0);
  EXPECT_EQ(s.beyond_budget, 1);
  EXPECT_FALSE(s.held());
  EXPECT_EQ(s.worst_ulp->error.ulps, 2.0);
  EXPECT_EQ(s.rms_ulp(), 2.0);
}

}  // namespace
}  // namespace pecheck::sweep
