// The streamed comparison (compare_with_reference: the reference computed row
// by row and folded into statistics as it comes) prints what the
// straightforward one prints (compare_through_tables: every exact value
// stored, then measure_accuracy): the same maximum and worst entry, counts,
// histogram and escalations, and the RMS to far more than its printed digits,
// on correct tables and on faulty ones, whole and sampled, on one thread and two.
#include <gtest/gtest.h>

#include <cmath>
#include <memory>
#include <numeric>
#include <optional>
#include <string>
#include <vector>

#include "../src/comparison.hpp"
#include "pecheck/accuracy/exact_text.hpp"
#include "pecheck/fast_encoding.hpp"
#include "pecheck/reference/reference.hpp"
#include "pecheck/properties/faulty_subjects.hpp"
#include "pecheck/subject.hpp"

namespace pecheck::validate {
namespace {

struct Case {
  std::string name;
  Table table;
  std::string convention;
  std::int64_t offset = 0;
  bool allowance = false;
};

Table faulty(std::unique_ptr<Subject> (*make)(std::shared_ptr<const Subject>), const char* preset,
             const TableRequest& request, FormatId format) {
  const std::unique_ptr<Subject> subject = make(std::shared_ptr<const Subject>(make_fast_subject()));
  return subject->encoding_table(*find_preset(preset), request, format);
}

std::vector<Case> cases() {
  std::vector<Case> out;
  const Convention vaswani = *find_preset("vaswani");  // a copy: the optional is a temporary
  out.push_back({"fast float32", fast_table(vaswani, {300, 64, 0}, FormatId::float32), "vaswani"});
  out.push_back({"fast float32 at offset 5000", fast_table(vaswani, {200, 48, 5000}, FormatId::float32), "vaswani", 5000});
  out.push_back({"fast float64 with the allowance", fast_table(vaswani, {150, 32, 0}, FormatId::float64), "vaswani", 0, true});
  out.push_back({"fast bfloat16", fast_table(vaswani, {120, 40, 0}, FormatId::bfloat16), "vaswani"});
  out.push_back({"tensor2tensor odd width float16", fast_table(*find_preset("tensor2tensor"), {100, 33, 0}, FormatId::float16),
                 "tensor2tensor"});
  out.push_back({"fairseq with its zero row", fast_table(*find_preset("fairseq"), {90, 24, 0}, FormatId::float32), "fairseq"});
  // Faults: float32 angles grow with the position (beyond the ULP budget,
  // judged again by the allowance); bfloat16 positions collide past 256.
  out.push_back({"float32 angles", faulty(properties::make_float32_angle_subject, "vaswani", {2000, 64, 0}, FormatId::float32),
                 "vaswani", 0, true});
  out.push_back({"float32 angles, float64 table",
                 faulty(properties::make_float32_angle_subject, "vaswani", {700, 32, 0}, FormatId::float64), "vaswani", 0, true});
  out.push_back({"bfloat16 positions",
                 faulty(properties::make_bfloat16_position_subject, "vaswani", {600, 64, 0}, FormatId::float32), "vaswani"});
  Table corrupted = fast_table(vaswani, {400, 64, 0}, FormatId::float32);
  for (std::int64_t c = 0; c < corrupted.cols; ++c) corrupted.set(333, c, -corrupted.at(333, c));
  out.push_back({"one corrupted row", std::move(corrupted), "vaswani", 0, true});
  // Typed mismatches: a NaN, an infinity and a zero of the wrong sign.
  Table typed = fast_table(vaswani, {64, 16, 0}, FormatId::float32);
  typed.set(3, 4, std::nan(""));
  typed.set(7, 2, INFINITY);
  typed.set(0, 0, -0.0);  // sin 0 = +0
  out.push_back({"typed mismatches", std::move(typed), "vaswani"});
  // A finite value past 1, in the last, partial group of eight of an odd-width row.
  Table past_one = fast_table(vaswani, {50, 21, 0}, FormatId::float32);
  past_one.set(10, 20, 1.0000001192092896);  // the float32 after 1
  out.push_back({"a value past 1", std::move(past_one), "vaswani"});
  return out;
}

void expect_same_input(const accuracy::WorstInput& a, const accuracy::WorstInput& b) {
  EXPECT_EQ(a.row, b.row);
  EXPECT_EQ(a.position, b.position);
  EXPECT_EQ(a.column, b.column);
  EXPECT_EQ(a.value_hex, b.value_hex);
  EXPECT_EQ(a.exact.hi, b.exact.hi);
  EXPECT_EQ(a.exact.lo, b.exact.lo);
  EXPECT_EQ(a.exact_text, b.exact_text);
  EXPECT_EQ(a.abs_error, b.abs_error);
}

void expect_same(const accuracy::Measurement& streamed, const accuracy::Measurement& stored) {
  EXPECT_EQ(streamed.entries, stored.entries);
  EXPECT_EQ(streamed.mismatches, stored.mismatches);
  EXPECT_EQ(streamed.max_ulp, stored.max_ulp);
  EXPECT_EQ(streamed.max_abs_error, stored.max_abs_error);
  // The same squares summed in another order: each addition is within 2^-53
  // relative, so the sums agree to n 2^-53 for n entries (below 2^-30 here),
  // and the square roots to half that; the RMS is printed to 3 digits.
  EXPECT_NEAR(streamed.rms_ulp, stored.rms_ulp, 1e-9 * stored.rms_ulp);
  EXPECT_EQ(streamed.ulp_histogram.counts, stored.ulp_histogram.counts);
  EXPECT_EQ(streamed.reference_escalations, stored.reference_escalations);
  if (stored.entries > stored.mismatches) expect_same_input(streamed.worst, stored.worst);
  ASSERT_EQ(streamed.abs_bound.has_value(), stored.abs_bound.has_value());
  if (stored.abs_bound) {
    EXPECT_EQ(streamed.abs_bound->beyond_ulp, stored.abs_bound->beyond_ulp);
    EXPECT_EQ(streamed.abs_bound->beyond_bound, stored.abs_bound->beyond_bound);
    EXPECT_EQ(streamed.abs_bound->worst_ratio, stored.abs_bound->worst_ratio);
    EXPECT_EQ(streamed.abs_bound->worst_ulp, stored.abs_bound->worst_ulp);
    EXPECT_EQ(streamed.abs_bound->worst_bound, stored.abs_bound->worst_bound);
    if (stored.abs_bound->beyond_ulp > 0) expect_same_input(streamed.abs_bound->worst, stored.abs_bound->worst);
  }
}

accuracy::Measurement compare_both_ways(const Case& c, const std::vector<std::int64_t>& rows, int threads) {
  SCOPED_TRACE(c.name + ", " + std::to_string(rows.size()) + " rows, " + std::to_string(threads) + " threads");
  const Convention convention = *find_preset(c.convention);  // a copy: the optional is a temporary
  std::optional<accuracy::Float64AngleAllowance> allowance;
  if (c.allowance) allowance.emplace(convention, c.table.cols, c.table.format);
  const accuracy::Float64AngleAllowance* bound = allowance ? &*allowance : nullptr;
  const ComparisonPlan plan{0, threads, nullptr};
  ComparisonFacts streamed_facts;
  std::int64_t stored_escalations = -1;
  const accuracy::Measurement streamed =
      compare_with_reference(c.table, convention, c.offset, rows, 1.0, "budget", bound, plan, streamed_facts);
  const accuracy::Measurement stored =
      compare_through_tables(c.table, convention, c.offset, rows, 1.0, "budget", bound, plan, stored_escalations);
  // The streamed comparison skips the rounding decisions (RoundedValues::
  // skipped), so it escalates at most the entries the stored tables do.
  EXPECT_LE(streamed_facts.escalations, stored_escalations);
  // Whether the rows compared hold only values in [-1, 1], counted directly.
  bool in_unit_interval = true;
  for (const std::int64_t r : rows) {
    for (std::int64_t col = 0; col < c.table.cols; ++col) in_unit_interval &= std::fabs(c.table.at(r, col)) <= 1.0;
  }
  EXPECT_EQ(streamed_facts.values_in_unit_interval, in_unit_interval);
  expect_same(streamed, stored);
  // Without its histogram (`pecheck validate` without a report): the same
  // figures, the RMS's bits too, and no histogram.
  ComparisonPlan without_histogram = plan;
  without_histogram.histogram = accuracy::HistogramCounting::left_out;
  ComparisonFacts left_out_facts;
  const accuracy::Measurement left_out = compare_with_reference(c.table, convention, c.offset, rows, 1.0, "budget",
                                                                bound, without_histogram, left_out_facts);
  EXPECT_TRUE(left_out.ulp_histogram.counts.empty());
  EXPECT_EQ(left_out.rms_ulp, streamed.rms_ulp);
  EXPECT_EQ(left_out.beyond_budget, streamed.beyond_budget);
  accuracy::Measurement stored_without = stored;
  stored_without.ulp_histogram = {};
  expect_same(left_out, stored_without);
  // The worst entry's exact value is printed to the 21 digits WorstInput
  // promises whatever the format: those of the full-precision reference
  // (2^-100), not of the format-precision values the comparison folds in
  // (2^-44 for float32: 13 digits).
  if (streamed.entries > streamed.mismatches) {
    const accuracy::WorstInput& w = streamed.worst;
    const reference::ReferenceTable full = reference::reference_table(
        convention, {1, c.table.cols, w.row + c.offset}, c.table.format, 1, reference::ExactValues::full);
    EXPECT_EQ(w.exact_text, accuracy::decimal_text(full.exact[static_cast<std::size_t>(w.column)], 21));
  }
  return streamed;
}

TEST(StreamedComparison, printsWhatTheComparisonThroughStoredTablesPrintsOnEveryRow) {
  for (const Case& c : cases()) {
    std::vector<std::int64_t> rows(static_cast<std::size_t>(c.table.rows));
    std::iota(rows.begin(), rows.end(), std::int64_t{0});
    for (const int threads : {1, 2}) {
      const accuracy::Measurement m = compare_both_ways(c, rows, threads);
      // The faulty tables exercise the paths they are here for.
      if (c.name == "float32 angles") {
        EXPECT_GT(m.abs_bound->beyond_ulp, 0);
      }
      if (c.name == "bfloat16 positions") {
        EXPECT_GT(m.max_ulp, 1e3);
      }
      if (c.name == "typed mismatches") {
        EXPECT_EQ(m.mismatches, 3);
      }
    }
  }
}

TEST(StreamedComparison, printsWhatTheComparisonThroughStoredTablesPrintsOnASample) {
  for (const Case& c : cases()) {
    const ComparisonPlan plan{80, 2, nullptr};
    const std::vector<std::int64_t> rows = rows_to_compare(c.table.rows, c.table.cols, c.offset, {c.table.rows / 2}, plan);
    ASSERT_LE(static_cast<std::int64_t>(rows.size()), c.table.rows);
    compare_both_ways(c, rows, 2);
  }
}

// The faults are seen at all: a comparison of equal nothings would agree too.
TEST(StreamedComparison, findsTheCorruptedRow) {
  for (const Case& c : cases()) {
    if (c.name != "one corrupted row") continue;
    std::vector<std::int64_t> rows(static_cast<std::size_t>(c.table.rows));
    std::iota(rows.begin(), rows.end(), std::int64_t{0});
    ComparisonFacts facts;
    const accuracy::Measurement m = compare_with_reference(c.table, *find_preset("vaswani"), 0, rows, 1.0, "budget",
                                                             nullptr, ComparisonPlan{0, 2, nullptr}, facts);
    EXPECT_EQ(m.worst.row, 333);
    EXPECT_GT(m.max_ulp, 1e6);
  }
}

// Validation leaves out its own pass over the values when the comparison of
// every entry says they are all in [-1, 1]: one value past 1, NaN or
// infinity must make it say otherwise.
TEST(StreamedComparison, saysWhetherEveryValueIsInTheUnitInterval) {
  for (const Case& c : cases()) {
    if (c.name != "fast float32" && c.name != "a value past 1" && c.name != "typed mismatches") continue;
    SCOPED_TRACE(c.name);
    std::vector<std::int64_t> rows(static_cast<std::size_t>(c.table.rows));
    std::iota(rows.begin(), rows.end(), std::int64_t{0});
    ComparisonFacts facts;
    compare_with_reference(c.table, *find_preset("vaswani"), 0, rows, 1.0, "budget", nullptr,
                           ComparisonPlan{0, 2, nullptr}, facts);
    EXPECT_EQ(facts.values_in_unit_interval, c.name == "fast float32");
  }
}

}  // namespace
}  // namespace pecheck::validate
