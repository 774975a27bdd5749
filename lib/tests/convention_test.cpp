#include "pecheck/convention.hpp"
#include "pecheck/memory_limit.hpp"
#include "pecheck/table_errors.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <set>

#include "pecheck/table.hpp"
#include "pecheck/testing/table_values.hpp"
#include "pecheck/testing/presets.hpp"

using namespace pecheck::testing;  // fill_table, flat_at, flat_set, table_of, values_of

namespace pecheck {
namespace {

using testing::preset;

// Columns written as a compact string: s0 = sin of frequency 0, c1 = cos of 1, z = zero.
std::string layout_string(const Convention& convention, std::int64_t d) {
  std::string out;
  for (const ColumnSpec& column : column_layout(convention, d)) {
    if (!out.empty()) out += ' ';
    switch (column.kind) {
      case ColumnKind::sin: out += "s" + std::to_string(column.frequency_index); break;
      case ColumnKind::cos: out += "c" + std::to_string(column.frequency_index); break;
      case ColumnKind::zero: out += "z"; break;
    }
  }
  return out;
}

TEST(Presets, areTheSixOfConventionsMdWithThoseNames) {
  std::set<std::string> names;
  for (const Convention& convention : presets()) names.insert(convention.name);
  EXPECT_EQ(names, (std::set<std::string>{"vaswani", "tf-tutorial", "tensor2tensor", "fairseq", "musicgen",
                                          "marian-hf"}));
  ASSERT_TRUE(find_preset("sd-timestep").has_value()) << "the timestep embeddings are found by name";
  ASSERT_TRUE(find_preset("ddpm-timestep").has_value());
  ASSERT_TRUE(find_preset("Vaswani").has_value()) << "names match in any case (--convention Vaswani)";
  EXPECT_EQ(find_preset("Vaswani")->name, "vaswani");
}

// The layouts below are the definitions in CONVENTIONS.md, read from each
// implementation's source; odd widths show each odd-d policy.
TEST(Layouts, vaswaniInterleavesAndGivesTheOddColumnToSin) {
  EXPECT_EQ(layout_string(preset("vaswani"), 4), "s0 c0 s1 c1");
  EXPECT_EQ(layout_string(preset("vaswani"), 5), "s0 c0 s1 c1 s2");
  EXPECT_EQ(layout_string(preset("vaswani"), 1), "s0");
}

TEST(Layouts, tfTutorialUsesHalvesAndRejectsOddWidths) {
  EXPECT_EQ(layout_string(preset("tf-tutorial"), 6), "s0 s1 s2 c0 c1 c2");
  EXPECT_THROW(column_layout(preset("tf-tutorial"), 7), ConventionError);
}

TEST(Layouts, tensor2tensorAppendsAZeroColumnForOddWidths) {
  EXPECT_EQ(layout_string(preset("tensor2tensor"), 5), "s0 s1 c0 c1 z");
  EXPECT_EQ(layout_string(preset("tensor2tensor"), 1), "z");
}

TEST(Layouts, fairseqNeedsFourColumnsAndZeroesRowOne) {
  EXPECT_THROW(check_dim(preset("fairseq"), 3), ConventionError);
  EXPECT_EQ(layout_string(preset("fairseq"), 5), "s0 s1 c0 c1 z");
  EXPECT_TRUE(is_zero_row(preset("fairseq"), 1));
  EXPECT_FALSE(is_zero_row(preset("fairseq"), 0));
  EXPECT_FALSE(is_zero_row(preset("fairseq"), 2));
}

TEST(Layouts, musicgenPutsCosFirst) {
  EXPECT_EQ(layout_string(preset("musicgen"), 5), "c0 c1 s0 s1 z");
}

TEST(Layouts, marianGivesSinTheExtraColumnInHalves) {
  EXPECT_EQ(layout_string(preset("marian-hf"), 5), "s0 s1 s2 c0 c1");
  EXPECT_EQ(layout_string(preset("marian-hf"), 4), "s0 s1 c0 c1");
}

TEST(Layouts, everyWidthHasExactlyDColumnsAndEachFrequencyOneSinAtMost) {
  for (const Convention& convention : presets()) {
    for (std::int64_t d = convention.min_dim; d <= 40; ++d) {
      if (d % 2 == 1 && convention.odd_dim == OddDimPolicy::reject) continue;
      const auto columns = column_layout(convention, d);
      ASSERT_EQ(static_cast<std::int64_t>(columns.size()), d) << convention.name << " d=" << d;
      std::set<std::pair<int, std::int64_t>> seen;
      for (const ColumnSpec& column : columns) {
        if (column.kind == ColumnKind::zero) continue;
        EXPECT_LT(column.frequency_index, frequency_count(convention, d));
        EXPECT_TRUE(seen.insert({static_cast<int>(column.kind), column.frequency_index}).second)
            << convention.name << " d=" << d << " repeats a column";
      }
    }
  }
}

TEST(Layouts, columnsByFrequencyInvertsTheLayoutAndPairedFrequenciesKeepOnlyPairs) {
  for (const Convention& convention : all_presets()) {
    for (std::int64_t d = convention.min_dim; d <= 40; ++d) {
      if (d % 2 == 1 && convention.odd_dim == OddDimPolicy::reject) continue;
      const std::vector<ColumnSpec> columns = column_layout(convention, d);
      const std::vector<FrequencyColumns> inverse = columns_by_frequency(columns);
      ASSERT_EQ(static_cast<std::int64_t>(inverse.size()), frequency_count(convention, d)) << convention.name << " d=" << d;
      for (std::size_t i = 0; i < inverse.size(); ++i) {
        EXPECT_EQ(inverse[i].frequency_index, static_cast<std::int64_t>(i));
        for (const auto& [column, kind] : {std::pair{inverse[i].sin_column, ColumnKind::sin},
                                           std::pair{inverse[i].cos_column, ColumnKind::cos}}) {
          if (column < 0) continue;
          EXPECT_EQ(columns[static_cast<std::size_t>(column)].kind, kind) << convention.name << " d=" << d;
          EXPECT_EQ(columns[static_cast<std::size_t>(column)].frequency_index, static_cast<std::int64_t>(i));
        }
      }
      std::int64_t mapped = 0;
      for (const FrequencyColumns& f : inverse) mapped += (f.sin_column >= 0) + (f.cos_column >= 0);
      const auto zeros = std::count_if(columns.begin(), columns.end(),
                                       [](const ColumnSpec& c) { return c.kind == ColumnKind::zero; });
      EXPECT_EQ(mapped + zeros, d) << "every sin and cos column is found once";
      const std::vector<FrequencyColumns> pairs = paired_frequencies(convention, d);
      EXPECT_EQ(static_cast<std::int64_t>(pairs.size()), d / 2) << convention.name << " d=" << d;
      for (const FrequencyColumns& f : pairs) EXPECT_TRUE(f.paired());
    }
  }
}

TEST(Frequencies, paperRuleIsBaseToTheMinusTwoIOverD) {
  const Convention vaswani = preset("vaswani");
  for (std::int64_t d : {4, 5, 64, 513}) {
    for (std::int64_t i = 0; i < frequency_count(vaswani, d); ++i) {
      const double expected = std::pow(10000.0, -2.0 * static_cast<double>(i) / static_cast<double>(d));
      // Two libm calls on each side, each within a few ulps: 1e-14 relative.
      EXPECT_NEAR(frequency_value(vaswani, d, i), expected, 1e-14 * expected) << "d=" << d << " i=" << i;
    }
  }
}

TEST(Frequencies, timescaleRuleSpansMinToMaxTimescale) {
  const Convention t2t = preset("tensor2tensor");
  const std::int64_t d = 512;
  const std::int64_t n = frequency_count(t2t, d);
  EXPECT_DOUBLE_EQ(frequency_value(t2t, d, 0), 1.0);
  // The last frequency is 1 / max_timescale (a few ulps from exp/log).
  EXPECT_NEAR(frequency_value(t2t, d, n - 1), 1.0e-4, 1e-4 * 1e-14);
}

TEST(Frequencies, theLadderIsStrictlyDecreasingAndGeometric) {
  for (const Convention& convention : presets()) {
    const std::int64_t d = 64;
    const std::int64_t n = frequency_count(convention, d);
    const double ratio = frequency_value(convention, d, 1) / frequency_value(convention, d, 0);
    for (std::int64_t i = 1; i < n; ++i) {
      const double previous = frequency_value(convention, d, i - 1);
      const double current = frequency_value(convention, d, i);
      EXPECT_LT(current, previous) << convention.name;
      EXPECT_NEAR(current / previous, ratio, 1e-13) << convention.name << " i=" << i;
    }
  }
}

TEST(Frequencies, paperAndTimescaleRulesDiffer) {
  // CONVENTIONS.md: the two rules are not close; at d = 512 the last
  // frequencies are 10000^(-510/512) and 1/10000.
  const double paper = frequency_value(preset("tf-tutorial"), 512, 255);
  const double timescale = frequency_value(preset("tensor2tensor"), 512, 255);
  EXPECT_GT(paper / timescale, 1.03);
}

TEST(Dimensions, impossibleWidthsAreErrorsThatNameTheProblem) {
  const Convention vaswani = preset("vaswani");
  for (std::int64_t d : {std::int64_t{0}, std::int64_t{-3}, max_dim + 1}) {
    try {
      check_dim(vaswani, d);
      ADD_FAILURE() << "d=" << d << " accepted";
    } catch (const ConventionError& e) {
      EXPECT_NE(std::string(e.what()).find("--dim " + std::to_string(d)), std::string::npos) << e.what();
    }
  }
  EXPECT_NO_THROW(check_dim(vaswani, max_dim));
}

TEST(Describe, namesEachPresetsFormulaDistinctly) {
  std::set<std::string> descriptions;
  for (const Convention& convention : presets()) descriptions.insert(describe(convention));
  EXPECT_EQ(descriptions.size(), presets().size());
  EXPECT_NE(describe(preset("fairseq")).find("zero rows: 1"), std::string::npos);
  EXPECT_NE(describe(preset("sd-timestep")).find("flip_sin_to_cos true, downscale_freq_shift 0"), std::string::npos);
}

// get_timestep_embedding's frequencies are other rules' where the formulas
// meet: shift 0 at even d is the paper rule with base max_period, shift 1 the
// timescale rule from 1 (tensor2tensor), so the terms are the same numbers.
TEST(TimestepRule, meetsThePaperAndTimescaleRulesWhereTheirFormulasAgree) {
  const Convention sd = preset("sd-timestep");
  const Convention tf = preset("tf-tutorial");
  const Convention ddpm = preset("ddpm-timestep");
  const Convention t2t = preset("tensor2tensor");
  for (std::int64_t i = 0; i < 160; ++i) {
    EXPECT_TRUE(same_frequency(frequency_term(sd, 320, i), frequency_term(tf, 320, i))) << i;
    EXPECT_TRUE(same_frequency(frequency_term(ddpm, 320, i), frequency_term(t2t, 320, i))) << i;
    EXPECT_TRUE(same_frequency(frequency_term(ddpm, 321, i), frequency_term(t2t, 321, i))) << i;
  }
  // At odd d the paper rule divides by d, the timestep rule by floor(d/2).
  EXPECT_FALSE(same_frequency(frequency_term(sd, 321, 1), frequency_term(tf, 321, 1)));
  EXPECT_FALSE(same_frequency(frequency_term(sd, 320, 1), frequency_term(ddpm, 320, 1)));
  EXPECT_EQ(layout_string(sd, 5), "c0 c1 s0 s1 z");
  EXPECT_EQ(layout_string(ddpm, 5), "s0 s1 c0 c1 z");
}

TEST(Tables, impossibleShapesAreRefusedBeforeAllocating) {
  EXPECT_THROW(make_table(-1, 4, FormatId::float32), TableShapeError);
  EXPECT_THROW(make_table(std::int64_t{1} << 40, 1024, FormatId::float32), MemoryLimitError);
  const Table table = make_table(3, 5, FormatId::float16);
  EXPECT_EQ(static_cast<std::size_t>(table.rows * table.cols), 15u);
}

}  // namespace
}  // namespace pecheck
