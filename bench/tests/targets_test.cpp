// The targets as data: each criterion's comparison at and around its bound,
// and the figures judged in the order, the reference only when it
// was measured. Synthetic figures: no timing here.
#include "pecheck/bench/targets.hpp"

#include <gtest/gtest.h>

#include <cmath>

namespace pecheck::bench {
namespace {

TEST(BenchTargets, comparisonsAtTheirBounds) {
  const auto criterion = [](Comparison comparison, double value) { return Criterion{"q", value, comparison, 1.0, ""}; };
  EXPECT_TRUE(criterion(Comparison::at_least, 1.0).met());
  EXPECT_FALSE(criterion(Comparison::at_least, std::nextafter(1.0, 0.0)).met());
  EXPECT_TRUE(criterion(Comparison::at_most, 1.0).met());
  EXPECT_FALSE(criterion(Comparison::at_most, std::nextafter(1.0, 2.0)).met());
  EXPECT_FALSE(criterion(Comparison::below, 1.0).met());
  EXPECT_TRUE(criterion(Comparison::below, std::nextafter(1.0, 0.0)).met());
  // A NaN figure (a workload that never ran) meets nothing.
  for (Comparison c : {Comparison::at_least, Comparison::at_most, Comparison::below}) {
    EXPECT_FALSE(criterion(c, std::nan("")).met());
  }
}

Figures figures_meeting_every_target() {
  Figures f;
  f.pe_table_f32.fraction_of_write_bw = 0.5;
  f.pe_table_f32.max_ulp = 0.5;
  f.pe_table_f16.time_per_element_vs_f32 = 1.5;
  f.pe_table_bf16.time_per_element_vs_f32 = 1.0;
  f.rope_cache_f32.time_per_entry_vs_pe_f32 = rope_cache_max_time_per_entry_vs_pe_f32;
  f.rope_cache_f32.max_ulp = 0.5;
  f.embed_forward.fraction_of_triad_bw = 0.7;
  f.reference_f32 = {true, 8192, 1024, 0.16, 50.0, 3};
  f.reference_f64 = {true, 8192, 1024, 0.8, 10.0, 0};
  return f;
}

TEST(BenchTargets, judgesTheSevenFiguresInOrder) {
  const std::vector<JudgedFigure> judged = judged_figures(figures_meeting_every_target());
  ASSERT_EQ(judged.size(), 7u);
  const char* ids[] = {"pe_table_f32",  "pe_table_f16",  "pe_table_bf16", "rope_cache_f32",
                       "embed_forward", "reference_f32", "reference_f64"};
  for (std::size_t i = 0; i < judged.size(); ++i) {
    EXPECT_EQ(judged[i].id, ids[i]);
    EXPECT_TRUE(judged[i].met()) << judged[i].id;
  }
  EXPECT_EQ(judged[0].criteria.size(), 2u);  // bandwidth and accuracy
  EXPECT_EQ(judged[3].criteria.size(), 2u);  // time per entry and accuracy
  EXPECT_NE(judged[5].detail.find("3 entries"), std::string::npos);
}

TEST(BenchTargets, eachMissIsItsFiguresAlone) {
  const auto missed = [](Figures f) {
    std::vector<std::string> ids;
    for (const JudgedFigure& figure : judged_figures(f)) {
      if (!figure.met()) ids.push_back(figure.id);
    }
    return ids;
  };
  using Ids = std::vector<std::string>;
  Figures f = figures_meeting_every_target();
  f.pe_table_f32.max_ulp = 1.01;  // fast enough but not accurate enough
  EXPECT_EQ(missed(f), Ids{"pe_table_f32"});
  f = figures_meeting_every_target();
  f.pe_table_bf16.time_per_element_vs_f32 = 1.6;
  EXPECT_EQ(missed(f), Ids{"pe_table_bf16"});
  f = figures_meeting_every_target();
  f.rope_cache_f32.time_per_entry_vs_pe_f32 = std::nextafter(rope_cache_max_time_per_entry_vs_pe_f32, 3.0);
  EXPECT_EQ(missed(f), Ids{"rope_cache_f32"});
  f = figures_meeting_every_target();
  f.rope_cache_f32.max_ulp = 1.01;  // fast enough but not accurate enough
  EXPECT_EQ(missed(f), Ids{"rope_cache_f32"});
  f = figures_meeting_every_target();
  f.embed_forward.fraction_of_triad_bw = 0.69;
  EXPECT_EQ(missed(f), Ids{"embed_forward"});
  f = figures_meeting_every_target();
  f.reference_f32.melem_per_s = 49.9;
  EXPECT_EQ(missed(f), Ids{"reference_f32"});
  f = figures_meeting_every_target();
  f.reference_f64.melem_per_s = 9.9;
  EXPECT_EQ(missed(f), Ids{"reference_f64"});
}

TEST(BenchTargets, anUnmeasuredReferenceIsNotJudged) {
  Figures f = figures_meeting_every_target();
  f.reference_f32.measured = false;
  f.reference_f64.measured = false;
  const std::vector<JudgedFigure> judged = judged_figures(f);
  ASSERT_EQ(judged.size(), 5u);
  EXPECT_EQ(judged.back().id, "embed_forward");
}

TEST(BenchTargets, criterionTextNamesValueAndTarget) {
  const Criterion c{"fraction of write bandwidth", 0.8003, Comparison::at_least, 0.5, ""};
  EXPECT_EQ(c.text(), "fraction of write bandwidth 0.8003 (target >= 0.5)");
}

TEST(BenchTargets, aBusyMachineIsSaidBesideTheFigures) {
  Figures f;
  f.threads = 2;
  f.load_average_before = 2 * busy_load_per_thread;  // at the line: not busy
  EXPECT_FALSE(machine_was_busy(f));
  EXPECT_EQ(conditions_text(f).find("busy"), std::string::npos);
  f.load_average_before = std::nextafter(2 * busy_load_per_thread, 10.0);
  EXPECT_TRUE(machine_was_busy(f));
  EXPECT_NE(conditions_text(f).find("a busy machine"), std::string::npos);
  f.load_average_before = -1.0;  // unknown (no /proc/loadavg): not claimed busy
  EXPECT_FALSE(machine_was_busy(f));
}

}  // namespace
}  // namespace pecheck::bench
