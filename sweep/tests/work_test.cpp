// The work description and its split into shards: every row in exactly one
// shard, the flags' syntax, and the refusals.
#include <gtest/gtest.h>

#include <vector>

#include "pecheck/convention.hpp"
#include "pecheck/sweep/work.hpp"

namespace pecheck::sweep {
namespace {

TEST(ShardPositions, everyRowIsInExactlyOneShardAndShardsAreContiguousInIndexOrder) {
  for (const InclusiveRange all : {InclusiveRange{0, 0}, InclusiveRange{0, 9}, InclusiveRange{5, 104},
                                   InclusiveRange{1000, 1006}, InclusiveRange{0, 16777215}}) {
    for (std::int64_t n : {std::int64_t{1}, std::int64_t{2}, std::int64_t{3}, std::int64_t{4}, std::int64_t{7}}) {
      if (n > all.count()) continue;
      std::int64_t next = all.first;
      std::int64_t smallest = all.count();
      std::int64_t largest = 0;
      for (std::int64_t k = 0; k < n; ++k) {
        const InclusiveRange rows = shard_positions(all, {k, n});
        EXPECT_EQ(rows.first, next) << "shard " << k << "/" << n << " of " << range_text(all);
        next = rows.last + 1;
        smallest = std::min(smallest, rows.count());
        largest = std::max(largest, rows.count());
      }
      EXPECT_EQ(next, all.last + 1) << n << " shards of " << range_text(all) << " do not end at its last row";
      EXPECT_LE(largest - smallest, 1) << n << " shards of " << range_text(all);
    }
  }
}

TEST(ShardPositions, followsTheDocumentedFormula) {
  // Shard k of n over m rows from F: [F + floor(k m / n), F + floor((k + 1) m / n) - 1].
  // 10 rows in 4 shards: floor(10 k / 4) = 0, 2, 5, 7, 10.
  const InclusiveRange all{100, 109};
  EXPECT_EQ(shard_positions(all, {0, 4}), (InclusiveRange{100, 101}));
  EXPECT_EQ(shard_positions(all, {1, 4}), (InclusiveRange{102, 104}));
  EXPECT_EQ(shard_positions(all, {2, 4}), (InclusiveRange{105, 106}));
  EXPECT_EQ(shard_positions(all, {3, 4}), (InclusiveRange{107, 109}));
  EXPECT_EQ(shard_positions(all, {0, 1}), all);
}

TEST(ShardPositions, refusesMoreShardsThanRowsAndIndicesOutOfRange) {
  EXPECT_THROW(shard_positions({0, 2}, {0, 4}), SweepUsageError);
  EXPECT_THROW(shard_positions({0, 9}, {4, 4}), SweepUsageError);
  EXPECT_THROW(shard_positions({0, 9}, {-1, 4}), SweepUsageError);
}

TEST(ParseShard, readsKOverNCountingFromZero) {
  EXPECT_EQ(parse_shard("0/1"), (Shard{0, 1}));
  EXPECT_EQ(parse_shard("3/4"), (Shard{3, 4}));
  for (const char* bad : {"4/4", "-1/4", "1/0", "a/b", "1/2/3", " 1/2", "1", "", "1/", "0x1/2", "+1/2"}) {
    EXPECT_THROW(parse_shard(bad), SweepUsageError) << "'" << bad << "'";
  }
}

TEST(ParsePositions, readsFirstAndLastBothIncludedBelowTwoToThe24) {
  EXPECT_EQ(parse_positions("0:16777215"), (InclusiveRange{0, 16777215}));
  EXPECT_EQ(parse_positions("7:7").count(), 1);
  for (const char* bad : {"0:16777216", "5:4", "-1:3", "3", "1:2:3", ":5", "0:"}) {
    EXPECT_THROW(parse_positions(bad), SweepUsageError) << "'" << bad << "'";
  }
}

TEST(ParseWidths, readsOneWidthOrARangeWithAStep) {
  EXPECT_EQ(parse_widths("512").widths(), (std::vector<std::int64_t>{512}));
  EXPECT_EQ(parse_widths("4:8").widths(), (std::vector<std::int64_t>{4, 5, 6, 7, 8}));
  EXPECT_EQ(parse_widths("4:9:2").widths(), (std::vector<std::int64_t>{4, 6, 8}));
  for (const char* bad : {"0", "8:4", "4:8:0", "4:8:2:1", "x", "16385"}) {
    EXPECT_THROW(parse_widths(bad), SweepUsageError) << "'" << bad << "'";
  }
}

TEST(MakeWork, takesTheSubjectsBudgetAndRefusesWidthsTheConventionRejects) {
  const SweepWork work = make_work("vaswani", parse_widths("8"), FormatId::float32, {0, 99}, "fast");
  EXPECT_EQ(work.budget_ulp, 1.0);  // accuracy/budgets.cpp: the fast path's float32 budget
  EXPECT_EQ(make_work("vaswani", parse_widths("8"), FormatId::float32, {0, 99}, "reference").budget_ulp, 0.5);
  EXPECT_THROW(make_work("tf-tutorial", parse_widths("4:6"), FormatId::float32, {0, 9}, "fast"), ConventionError);
  EXPECT_THROW(make_work("nope", parse_widths("8"), FormatId::float32, {0, 9}, "fast"), SweepUsageError);
  EXPECT_THROW(make_work("vaswani", parse_widths("8"), FormatId::float32, {0, 9}, "other"), SweepUsageError);
}

TEST(EntryCount, isRowsTimesTheSumOfWidths) {
  const SweepWork work = make_work("vaswani", parse_widths("4:8:2"), FormatId::float16, {0, 99}, "fast");
  EXPECT_EQ(entry_count(work, {10, 19}), 10 * (4 + 6 + 8));
}

}  // namespace
}  // namespace pecheck::sweep
