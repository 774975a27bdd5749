// Partial results: sharded runs merged give the bytes of one unsharded run;
// the JSON round-trips; bad files and bad sets of parts are refused naming
// the file and the field.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "pecheck/sweep/merge.hpp"
#include "pecheck/sweep/result.hpp"
#include "pecheck/sweep/run.hpp"

namespace pecheck::sweep {
namespace {

SweepResult run(const SweepWork& work, const Shard& shard, int threads = 1) {
  const InclusiveRange rows = shard_positions(work.positions, shard);
  return {work, shard, rows, run_sweep(work, rows, threads)};
}

// Each part written and read back, as `pecheck merge` sees them.
std::string merged_bytes(const SweepWork& work, std::int64_t shards) {
  std::vector<NamedResult> parts;
  for (std::int64_t k = shards; k-- > 0;) {  // in reverse: the order of the files must not matter
    const std::string name = "part" + std::to_string(k) + ".json";
    parts.push_back({name, parse_result_json(result_json(run(work, {k, shards})), name)});
  }
  return result_json(merge_results(parts));
}

struct WorkCase {
  const char* convention;
  const char* dims;
  FormatId format;
  InclusiveRange positions;
  const char* subject;
};

TEST(SweepMerge, shardsMergedAreByteForByteTheUnshardedRun) {
  for (const WorkCase& c : {WorkCase{"vaswani", "16", FormatId::float32, {0, 40}, "fast"},
                            WorkCase{"fairseq", "6:9", FormatId::bfloat16, {0, 13}, "fast"},
                            WorkCase{"tensor2tensor", "8", FormatId::float64, {16777200, 16777215}, "fast"},
                            WorkCase{"vaswani", "5", FormatId::float16, {100, 120}, "reference"}}) {
    const SweepWork work = make_work(c.convention, parse_widths(c.dims), c.format, c.positions, c.subject);
    const std::string whole = result_json(run(work, {0, 1}));
    for (std::int64_t shards : {2, 3, 5}) {
      EXPECT_EQ(merged_bytes(work, shards), whole) << c.convention << " d " << c.dims << ", " << shards << " shards";
    }
  }
}

TEST(SweepRun, theResultDoesNotDependOnTheThreadCount) {
  const SweepWork work = make_work("vaswani", parse_widths("32"), FormatId::float32, {0, 63}, "fast");
  EXPECT_EQ(run(work, {0, 1}, 1), run(work, {0, 1}, 2));
}

TEST(SweepRun, theFastPathHoldsItsBudgetAndTheReferenceIsCorrectlyRounded) {
  const SweepResult fast = run(make_work("vaswani", parse_widths("64"), FormatId::float32, {0, 99}, "fast"), {0, 1});
  EXPECT_TRUE(fast.statistics.held()) << result_summary(fast);
  EXPECT_EQ(fast.statistics.tally.entries, 6400);
  const SweepResult reference =
      run(make_work("vaswani", parse_widths("64"), FormatId::float16, {0, 99}, "reference"), {0, 1});
  EXPECT_LE(reference.statistics.tally.max_ulp(), 0.5) << result_summary(reference);
}

TEST(SweepResultJson, roundTripsToTheSameResultAndBytes) {
  const SweepResult result = run(make_work("musicgen", parse_widths("10"), FormatId::float16, {3, 30}, "fast"), {1, 2});
  const std::string bytes = result_json(result);
  const SweepResult back = parse_result_json(bytes, "part.json");
  EXPECT_EQ(back, result);
  EXPECT_EQ(result_json(back), bytes);
}

// The error message of parsing `text`, or "" when it parses.
std::string parse_error(const std::string& text) {
  try {
    (void)parse_result_json(text, "part.json");
  } catch (const SweepFileError& e) {
    return e.what();
  }
  return {};
}

std::string replaced(std::string text, const std::string& from, const std::string& to) {
  const std::size_t at = text.find(from);
  EXPECT_NE(at, std::string::npos) << from;
  if (at != std::string::npos) text.replace(at, from.size(), to);
  return text;
}

TEST(SweepResultJson, aBadFileIsRefusedNamingTheFileAndField) {
  const std::string good = result_json(run(make_work("vaswani", parse_widths("8"), FormatId::float32, {0, 9}, "fast"), {0, 2}));
  EXPECT_NE(parse_error("{").find("part.json: not JSON"), std::string::npos);
  EXPECT_NE(parse_error(replaced(good, "\"entries\": 40", "\"entries\": 39")).find("part.json: field 'entries'"),
            std::string::npos);
  EXPECT_NE(parse_error(replaced(good, "\"dtype\": \"float32\"", "\"dtype\": \"float8\"")).find("field 'work.dtype'"),
            std::string::npos);
  EXPECT_NE(parse_error(replaced(good, "\"index\": 0", "\"index\": 2")).find("field 'shard'"), std::string::npos);
  EXPECT_NE(parse_error(replaced(good, "\"last\": 4", "\"last\": 5")).find("field 'shard.positions'"),
            std::string::npos);
  EXPECT_NE(parse_error(replaced(good, "\"pecheck_sweep\": 2", "\"pecheck_sweep\": 3")).find("field 'pecheck_sweep'"),
            std::string::npos);
  EXPECT_NE(parse_error(replaced(good, "\"escalations\"", "\"escalated\"")).find("field 'escalations': missing"),
            std::string::npos);
}

// The error message of merging, or "" when it merges.
std::string merge_error(const std::vector<NamedResult>& parts) {
  try {
    (void)merge_results(parts);
  } catch (const SweepMergeError& e) {
    return e.what();
  }
  return {};
}

TEST(SweepMerge, refusesDifferentWorkOverlapsAndMissingShardsNamingTheFileAndField) {
  const SweepWork work = make_work("vaswani", parse_widths("8"), FormatId::float32, {0, 11}, "fast");
  const NamedResult a{"a.json", run(work, {0, 3})};
  const NamedResult b{"b.json", run(work, {1, 3})};
  const NamedResult c{"c.json", run(work, {2, 3})};
  EXPECT_EQ(merge_error({c, a, b}), "");

  SweepWork other = work;
  other.format = FormatId::float16;
  const NamedResult d{"d.json", run(other, {1, 3})};
  const std::string different = merge_error({a, d, c});
  EXPECT_NE(different.find("d.json: work.dtype is float16 where the first part has float32 (a.json)"),
            std::string::npos)
      << different;

  const std::string missing = merge_error({a, c});
  EXPECT_NE(missing.find("c.json: field 'shard.positions' starts at row 8: rows 4:7 are in no part"), std::string::npos)
      << missing;
  const std::string missing_end = merge_error({a, b});
  EXPECT_NE(missing_end.find("b.json: field 'shard.positions' ends at row 7: rows 8:11 are in no part"),
            std::string::npos)
      << missing_end;

  const std::string twice = merge_error({a, b, b, c});
  EXPECT_NE(twice.find("b.json: field 'shard.positions' 4:7 overlaps b.json (4:7)"), std::string::npos) << twice;
  // Shards of different counts overlap at the rows they share.
  const NamedResult half{"half.json", run(work, {0, 2})};  // rows 0:5
  const std::string overlap = merge_error({a, half, b, c});
  EXPECT_NE(overlap.find("overlaps"), std::string::npos) << overlap;
  EXPECT_NE(overlap.find("at rows 0:3"), std::string::npos) << overlap;
}

TEST(SweepMerge, shardsOfDifferentCountsThatTileTheRowsMerge) {
  const SweepWork work = make_work("vaswani", parse_widths("8"), FormatId::float32, {0, 11}, "fast");
  // 0/2 holds rows 0:5; 2/4 and 3/4 hold 6:8 and 9:11.
  const std::string merged = result_json(
      merge_results({{"h.json", run(work, {0, 2})}, {"q2.json", run(work, {2, 4})}, {"q3.json", run(work, {3, 4})}}));
  EXPECT_EQ(merged, result_json(run(work, {0, 1})));
}

}  // namespace
}  // namespace pecheck::sweep
