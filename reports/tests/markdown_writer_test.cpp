#include <sstream>

#include <gtest/gtest.h>

#include "pecheck/reports/writers.hpp"
#include "support/sample_report.hpp"

namespace pecheck::reports {
namespace {

std::vector<std::string> lines(const std::string& text) {
  std::vector<std::string> out;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) out.push_back(line);
  return out;
}

// Pipes that separate cells: those not escaped with a backslash.
int cell_separators(const std::string& line) {
  int count = 0;
  for (std::size_t i = 0; i < line.size(); ++i) count += line[i] == '|' && (i == 0 || line[i - 1] != '\\');
  return count;
}

TEST(MarkdownWriter, everyTableRowHasItsHeadersColumnCount) {
  const std::vector<std::string> all = lines(write_markdown(testing::sample_report()));
  int tables = 0;
  for (std::size_t i = 0; i + 1 < all.size(); ++i) {
    if (all[i].rfind("|", 0) != 0 || all[i + 1].rfind("| ---", 0) != 0) continue;
    ++tables;
    const int columns = cell_separators(all[i]);
    for (std::size_t k = i + 1; k < all.size() && all[k].rfind("|", 0) == 0; ++k) {
      EXPECT_EQ(cell_separators(all[k]), columns) << "table row " << k << ": " << all[k];
    }
  }
  EXPECT_GE(tables, 5);  // run, checks, accuracy, statistics, evidence, environment
}

TEST(MarkdownWriter, performanceRowsCarryTheirVerdicts) {
  const std::string text = write_markdown(testing::sample_report());
  ASSERT_NE(text.find("## Performance"), std::string::npos);
  int missed = 0;
  int met = 0;
  for (const std::string& line : lines(text)) {
    if (line.find("| embed\\_forward |") == 0) {
      EXPECT_NE(line.find("missed"), std::string::npos) << line;
      ++missed;
    } else if (line.find("| pe\\_table") == 0 || line.find("| reference\\_f32") == 0) {
      EXPECT_NE(line.find("\u2705 met"), std::string::npos) << line;
      ++met;
    }
  }
  EXPECT_EQ(missed, 1);
  EXPECT_EQ(met, 5);  // two criteria for float32 (bandwidth, accuracy), one each for the rest
}

TEST(MarkdownWriter, hostileStringsCannotOpenHtmlOrCode) {
  const std::string text = write_markdown(testing::sample_report());
  for (char c : text) EXPECT_FALSE(static_cast<unsigned char>(c) < 0x20 && c != '\n' && c != '\t') << int(c);
  // Outside fenced blocks, every backtick is escaped.
  bool fenced = false;
  for (const std::string& line : lines(text)) {
    if (line.rfind("```", 0) == 0) {
      fenced = !fenced;
      continue;
    }
    if (fenced) continue;
    // "\<script" renders as the text "<script"; an unescaped "<" would open
    // HTML. The writer's own tags are the only ones: line breaks in cells and
    // the folds around each check's statistics (whose text is HTML-escaped).
    const auto own_tag = [&](std::size_t i) {
      for (std::string_view tag : {"<br>", "<details>", "</details>", "<summary>", "</summary>"}) {
        if (line.compare(i, tag.size(), tag) == 0) return true;
      }
      return false;
    };
    for (std::size_t i = 0; i < line.size(); ++i) {
      if (line[i] == '<') {
        EXPECT_TRUE(own_tag(i) || (i > 0 && line[i - 1] == '\\')) << line;
      }
    }
    for (std::size_t i = 0; i < line.size(); ++i) {
      if (line[i] == '`') {
        EXPECT_EQ(line[i - 1], '\\') << line;
      }
    }
  }
  EXPECT_FALSE(fenced) << "a code block was left open";
}

TEST(MarkdownWriter, failuresAreListedWithTheirCounterexample) {
  const std::string text = write_markdown(testing::sample_report());
  EXPECT_NE(text.find("## Failed checks"), std::string::npos);
  EXPECT_NE(text.find("position = 257"), std::string::npos);
  EXPECT_NE(text.find("Some checks failed"), std::string::npos);
  EXPECT_NE(text.find("## Notes"), std::string::npos) << "what the report could not compute is said";
}

TEST(MarkdownWriter, accuracyRowsShowMeasuredValueBesideBudget) {
  const std::string text = write_markdown(testing::sample_report());
  // Format, budget, max and RMS ULP, entries; then the worst input and the
  // nearest case to a zero in hex, and the float32-angle comparison.
  EXPECT_NE(text.find("| float16 | 0.5 | 1.5 | 0.5 | 4096 |"), std::string::npos) << text;
  EXPECT_NE(text.find("0x3f000000 (1.5 ULP) at position 16777000, column 3 (vaswani)"), std::string::npos) << text;
  EXPECT_NE(text.find("0xb6c3f6e4 (0.75 ULP) at position 355"), std::string::npos) << text;
  EXPECT_NE(text.find("| 2.5e+06 |"), std::string::npos) << text;
}

// The oracle's escalations to MPFR are shown beside each accuracy row, as
// counted (the writer must not drop or move the count).
TEST(MarkdownWriter, accuracyRowsShowTheReferenceEscalations) {
  Report report = testing::sample_report();
  ASSERT_FALSE(report.accuracy.empty());
  ASSERT_FALSE(report.accuracy[0].rows.empty());
  report.accuracy[0].rows[0].measurement.reference_escalations = 4321;
  const std::string text = write_markdown(report);
  EXPECT_NE(text.find("| Reference escalations |"), std::string::npos) << text;
  bool found = false;
  for (const std::string& line : lines(text)) {
    const std::string format(format_of(report.accuracy[0].rows[0].measurement.format).name);
    if (line.find("| " + format + " |") == 0 && line.size() > 10) {
      found = found || line.substr(line.size() - 8) == "| 4321 |";
    }
  }
  EXPECT_TRUE(found) << text;
}

TEST(MarkdownWriter, passingReportSaysSo) {
  Report report = testing::sample_report();
  report.checks = {testing::held_property()};
  const std::string text = write_markdown(report);
  EXPECT_NE(text.find("All checks held"), std::string::npos);
  EXPECT_EQ(text.find("## Failed checks"), std::string::npos);
}

TEST(MarkdownWriter, sameReportSameBytesWithoutDurations) {
  Report a = testing::sample_report();
  Report b = a;
  b.checks[1].seconds = 1234.5;
  EXPECT_EQ(write_markdown(a), write_markdown(b));
}
}  // namespace
}  // namespace pecheck::reports

namespace pecheck::reports {
namespace {

// A statistic nothing bounds asserts nothing: its row says info, never held;
// a bounded one says held or failed by its bounds.
TEST(MarkdownWriter, aStatisticWithoutBoundsIsInfoNeverHeld) {
  Report report = testing::sample_report();
  ASSERT_FALSE(report.checks.empty());
  report.checks.front().outcome.statistics = {{"unbounded figure", 3.5, std::nullopt, std::nullopt, "measured"},
                                              {"bounded figure", 3.5, 1.0, 2.0, "measured"}};
  bool unbounded = false, bounded = false;
  for (const std::string& line : lines(write_markdown(report))) {
    if (line.find("unbounded figure") != std::string::npos) {
      unbounded = true;
      EXPECT_NE(line.find("info"), std::string::npos) << line;
      EXPECT_EQ(line.find("held"), std::string::npos) << line;
    } else if (line.find("bounded figure") != std::string::npos) {
      bounded = true;
      EXPECT_NE(line.find("failed"), std::string::npos) << line;
    }
  }
  EXPECT_TRUE(unbounded && bounded);
}

// Issue 13: long per-check statistics are folded into each check's details,
// so report.md's first screens stay the answers and the verdicts.
TEST(MarkdownWriter, eachChecksStatisticsAreFoldedUnderItsOwnSummary) {
  Report report = testing::sample_report();
  ASSERT_FALSE(report.checks.empty());
  report.checks.front().outcome.statistics = {{"folded figure", 3.5, std::nullopt, std::nullopt, "measured"}};
  const std::vector<std::string> all = lines(write_markdown(report));
  std::string open_summary;
  bool found = false;
  for (const std::string& line : all) {
    if (line.rfind("<details><summary>", 0) == 0) open_summary = line;
    if (line == "</details>") open_summary.clear();
    if (line.find("folded figure") != std::string::npos) {
      found = true;
      EXPECT_NE(open_summary.find(report.checks.front().id + ": 1 statistic<"), std::string::npos)
          << "the statistic is not inside its check's <details>: " << open_summary;
    }
  }
  EXPECT_TRUE(found);
}

}  // namespace
}  // namespace pecheck::reports
