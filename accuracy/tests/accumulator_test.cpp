// The one accumulator: any split of the rows, merged in any order and on any
// number of threads, gives the bits of one pass; its figures are the scalar
// metric's (histogram, worst entries, counts beyond the budget, typed
// mismatches); ties go to the earliest (row, column); an allowance judges the
// entries beyond the budget.
#include <gtest/gtest.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <limits>
#include <numeric>
#include <random>
#include <thread>
#include <vector>

#include "pecheck/accuracy/accumulator.hpp"
#include "pecheck/accuracy/measure.hpp"

namespace pecheck::accuracy {
namespace {

constexpr double infinity = std::numeric_limits<double>::infinity();
const Format& f32 = format_of(FormatId::float32);

struct Rows {
  std::int64_t cols = 0;
  std::vector<std::vector<float>> values;
  std::vector<std::vector<DoubleDouble>> exact;
};

// Rows of float32 values a few ULP from sin-like exact values, with exact
// zeros stored as zeros, a NaN, an infinity and a -0 among them.
Rows synthetic_rows(std::int64_t rows, std::int64_t cols, unsigned seed) {
  std::mt19937_64 random(seed);
  std::uniform_int_distribution<int> steps(-4, 4);
  Rows out;
  out.cols = cols;
  for (std::int64_t r = 0; r < rows; ++r) {
    std::vector<float> values;
    std::vector<DoubleDouble> exact;
    for (std::int64_t c = 0; c < cols; ++c) {
      const double hi = c == 3 ? 0.0 : std::sin(0.37 * static_cast<double>(r) + 1.3 * static_cast<double>(c));
      const DoubleDouble x{hi, std::ldexp(hi, -60)};
      float v = static_cast<float>(hi);
      for (int k = steps(random); k != 0; k += k > 0 ? -1 : 1) v = std::nextafter(v, k > 0 ? 2.0f : -2.0f);
      values.push_back(c == 3 ? 0.0f : v);
      exact.push_back(x);
    }
    out.values.push_back(values);
    out.exact.push_back(exact);
  }
  out.values[5][7] = std::nanf("");
  out.values[9][2] = std::numeric_limits<float>::infinity();
  out.values[11][3] = -0.0f;
  return out;
}

// A bound proportional to |exact|: entries within 3 float32 ULP or so pass by it.
class RelativeAllowance final : public Allowance {
 public:
  double bound(std::int64_t row, std::int64_t, DoubleDouble exact) const override {
    return row == 0 ? 0.0 : std::fabs(exact.hi) * 0x1p-22;
  }
  std::string_view name() const override { return "a test bound"; }
  std::string_view source() const override { return "|exact| 2^-22, 0 in row 0"; }
};

void add_rows(Accumulator& accumulator, const Rows& rows, std::size_t begin, std::size_t end) {
  for (std::size_t r = begin; r < end; ++r) {
    accumulator.add_row(static_cast<std::int64_t>(r), std::span<const float>(rows.values[r]),
                        std::span<const DoubleDouble>(rows.exact[r]));
  }
}

bool same_bits(double a, double b) { return std::bit_cast<std::uint64_t>(a) == std::bit_cast<std::uint64_t>(b); }

void expect_same_input(const WorstInput& a, const WorstInput& b) {
  EXPECT_EQ(a.row, b.row);
  EXPECT_EQ(a.position, b.position);
  EXPECT_EQ(a.column, b.column);
  EXPECT_EQ(a.value_hex, b.value_hex);
  EXPECT_EQ(a.exact_text, b.exact_text);
  EXPECT_TRUE(same_bits(a.ulps, b.ulps));
  EXPECT_TRUE(same_bits(a.abs_error, b.abs_error));
}

// Bit for bit, every field a measurement prints.
void expect_same_measurement(const Measurement& a, const Measurement& b) {
  EXPECT_EQ(a.entries, b.entries);
  EXPECT_EQ(a.mismatches, b.mismatches);
  EXPECT_TRUE(same_bits(a.max_ulp, b.max_ulp));
  EXPECT_TRUE(same_bits(a.rms_ulp, b.rms_ulp));
  EXPECT_TRUE(same_bits(a.max_abs_error, b.max_abs_error));
  EXPECT_EQ(a.ulp_histogram.counts, b.ulp_histogram.counts);
  expect_same_input(a.worst, b.worst);
  ASSERT_EQ(a.nearest_zero.has_value(), b.nearest_zero.has_value());
  if (a.nearest_zero) expect_same_input(*a.nearest_zero, *b.nearest_zero);
  ASSERT_EQ(a.abs_bound.has_value(), b.abs_bound.has_value());
  if (a.abs_bound) {
    EXPECT_EQ(a.abs_bound->beyond_ulp, b.abs_bound->beyond_ulp);
    EXPECT_EQ(a.abs_bound->beyond_bound, b.abs_bound->beyond_bound);
    EXPECT_TRUE(same_bits(a.abs_bound->worst_ratio, b.abs_bound->worst_ratio));
    expect_same_input(a.abs_bound->worst, b.abs_bound->worst);
  }
}

std::int64_t row_position(std::int64_t row) { return row + 100; }

TEST(Accumulator, anySplitOfTheRowsMergedInAnyOrderGivesTheBitsOfOnePass) {
  const Rows rows = synthetic_rows(40, 21, 1);
  const RelativeAllowance allowance;
  Accumulator whole(FormatId::float32, 1.0, &allowance);
  add_rows(whole, rows, 0, rows.values.size());
  const Measurement one_pass = whole.measurement(row_position, "test", 0);
  ASSERT_GT(one_pass.abs_bound->beyond_ulp, 0);
  ASSERT_GT(one_pass.mismatches, 0);
  std::mt19937_64 random(3);
  for (int trial = 0; trial < 20; ++trial) {
    std::vector<std::size_t> cuts = {0, rows.values.size()};
    for (int k = 0; k < trial % 7; ++k) cuts.push_back(random() % rows.values.size());
    std::sort(cuts.begin(), cuts.end());
    std::vector<Accumulator> parts;
    for (std::size_t k = 0; k + 1 < cuts.size(); ++k) {
      parts.emplace_back(FormatId::float32, 1.0, &allowance);
      // Rows within a part in reverse: the order inside a part does not matter either.
      for (std::size_t r = cuts[k + 1]; r-- > cuts[k];) add_rows(parts.back(), rows, r, r + 1);
    }
    std::shuffle(parts.begin(), parts.end(), random);
    Accumulator merged(FormatId::float32, 1.0, &allowance);
    for (const Accumulator& part : parts) merged.merge(part);
    EXPECT_EQ(merged.tally(), whole.tally()) << "trial " << trial;
    expect_same_measurement(merged.measurement(row_position, "test", 0), one_pass);
  }
}

// Without its histogram (HistogramCounting::left_out) an accumulator's
// tally is the one with it but the histogram: the budget's counts, with an
// allowance and without, the sums, the kept entries; merges alike.
TEST(Accumulator, leavingTheHistogramOutChangesNoOtherFigure) {
  const Rows rows = synthetic_rows(40, 21, 5);
  const RelativeAllowance allowance;
  for (const Allowance* judge : {static_cast<const Allowance*>(nullptr), static_cast<const Allowance*>(&allowance)}) {
    Accumulator counted(FormatId::float32, 1.0, judge, SignedZero::mismatch, HistogramCounting::counted);
    Accumulator left_out(FormatId::float32, 1.0, judge, SignedZero::mismatch, HistogramCounting::left_out);
    Accumulator halves(FormatId::float32, 1.0, judge, SignedZero::mismatch, HistogramCounting::left_out);
    Accumulator second(FormatId::float32, 1.0, judge, SignedZero::mismatch, HistogramCounting::left_out);
    add_rows(counted, rows, 0, rows.values.size());
    add_rows(left_out, rows, 0, rows.values.size());
    add_rows(halves, rows, 0, 17);
    add_rows(second, rows, 17, rows.values.size());
    halves.merge(second);
    ASSERT_GT(counted.tally().beyond_budget, 0);
    Tally expected = counted.tally();
    expected.histogram.clear();
    EXPECT_EQ(left_out.tally(), expected) << (judge ? "with" : "without") << " an allowance";
    EXPECT_EQ(halves.tally(), expected) << (judge ? "with" : "without") << " an allowance";
    Measurement m = counted.measurement(row_position, "test", 0);
    const Measurement without = left_out.measurement(row_position, "test", 0);
    EXPECT_TRUE(without.ulp_histogram.upper_edges.empty());
    EXPECT_TRUE(without.ulp_histogram.counts.empty());
    m.ulp_histogram = {};
    expect_same_measurement(without, m);
  }
}

TEST(Accumulator, theFiguresDoNotDependOnTheThreadCount) {
  const Rows rows = synthetic_rows(64, 37, 2);
  Accumulator one(FormatId::float32, 1.0);
  add_rows(one, rows, 0, rows.values.size());
  for (int threads : {2, 3, 5, 8}) {
    std::vector<Accumulator> workers(static_cast<std::size_t>(threads), Accumulator(FormatId::float32, 1.0));
    std::vector<std::thread> pool;
    for (int w = 0; w < threads; ++w) {
      pool.emplace_back([&, w] {  // rows dealt out round-robin
        for (std::size_t r = static_cast<std::size_t>(w); r < rows.values.size(); r += static_cast<std::size_t>(threads)) {
          add_rows(workers[static_cast<std::size_t>(w)], rows, r, r + 1);
        }
      });
    }
    for (std::thread& t : pool) t.join();
    for (std::size_t w = 1; w < workers.size(); ++w) workers[0].merge(workers[w]);
    EXPECT_EQ(workers[0].tally(), one.tally()) << threads << " threads";
  }
}

// The scalar metric entry by entry, as a reader would compute the figures.
struct ScalarPass {
  std::int64_t mismatches = 0, beyond = 0;
  double max_ulp = 0.0;
  Histogram histogram{ulp_histogram_edges(), std::vector<std::int64_t>(ulp_histogram_edges().size(), 0)};
};
ScalarPass scalar_pass(const Rows& rows, double budget) {
  ScalarPass s;
  for (std::size_t r = 0; r < rows.values.size(); ++r) {
    for (std::size_t c = 0; c < rows.values[r].size(); ++c) {
      const UlpError e = ulp_error(rows.values[r][c], rows.exact[r][c], f32);
      if (e.mismatch != Mismatch::none) {
        ++s.mismatches;
        continue;
      }
      count_in_histogram(s.histogram, e.ulps);
      s.max_ulp = std::max(s.max_ulp, e.ulps);
      s.beyond += e.ulps > budget ? 1 : 0;
    }
  }
  return s;
}

TEST(Accumulator, countsEachMeasuredEntryOnceInItsHistogramBinAndBeyondTheBudget) {
  const Rows rows = synthetic_rows(30, 19, 4);
  for (double budget : {0.5, 1.0, 2.0, 4.0}) {
    Accumulator accumulator(FormatId::float32, budget);
    add_rows(accumulator, rows, 0, rows.values.size());
    const ScalarPass expected = scalar_pass(rows, budget);
    EXPECT_EQ(accumulator.tally().histogram, expected.histogram.counts);
    EXPECT_EQ(accumulator.tally().beyond_budget, expected.beyond) << "budget " << budget;
    EXPECT_EQ(accumulator.tally().mismatches, expected.mismatches);
    EXPECT_EQ(accumulator.tally().max_ulp(), expected.max_ulp);
  }
}

TEST(Accumulator, aTieForTheWorstGoesToTheEarliestRowThenColumn) {
  // Every row the same: the same errors at every row, and within a row the
  // same error at columns 2 and 6 (the largest).
  std::vector<float> values(9, 0.5f);
  std::vector<DoubleDouble> exact(9, DoubleDouble{0.5, 0.0});
  values[6] = values[2] = std::nextafter(0.5f, 1.0f);
  Accumulator accumulator(FormatId::float32, 1.0);
  for (std::int64_t row : {7, 3, 9, 4}) {
    accumulator.add_row(row, std::span<const float>(values), std::span<const DoubleDouble>(exact));
  }
  ASSERT_TRUE(accumulator.tally().worst);
  EXPECT_EQ(accumulator.tally().worst->key, (EntryKey{0, 3, 2}));
  EXPECT_EQ(accumulator.tally().worst_abs->key, (EntryKey{0, 3, 2}));
  EXPECT_EQ(accumulator.tally().nearest_zero->key, (EntryKey{0, 3, 0}));
  // A later table (a sweep's width) loses a tie to an earlier one.
  accumulator.add_row(0, std::span<const float>(values), std::span<const DoubleDouble>(exact), 1);
  EXPECT_EQ(accumulator.tally().worst->key, (EntryKey{0, 3, 2}));
}

TEST(Accumulator, typedMismatchesAreCountedApartAndTheFirstIsKept) {
  const std::vector<float> values = {0.25f, std::nanf(""), -0.0f, std::numeric_limits<float>::infinity(), 0.0f};
  const std::vector<DoubleDouble> exact = {{0.25, 0.0}, {0.5, 0.0}, {0.0, 0.0}, {0.5, 0.0}, {0.0, 0.0}};
  Accumulator strict(FormatId::float32, 1.0);
  strict.add_row(1, std::span<const float>(values), std::span<const DoubleDouble>(exact));
  strict.add_row(0, std::span<const float>(values).subspan(2), std::span<const DoubleDouble>(exact).subspan(2));
  const Tally& t = strict.tally();
  EXPECT_EQ(t.entries, 8);
  EXPECT_EQ(t.mismatches, 5);  // NaN, -0 and infinity in row 1; -0 and infinity in row 0
  EXPECT_EQ(t.signed_zeros, 2);
  EXPECT_EQ(t.first_mismatch->key, (EntryKey{0, 0, 0}));  // the -0 of row 0
  EXPECT_EQ(t.max_abs_error(), infinity);
  EXPECT_EQ(t.rms_ulp(), 0.0);
  // A rotary cache counts -0 against +0 as equal.
  Accumulator rotary(FormatId::float32, 1.0, nullptr, SignedZero::equal);
  rotary.add_row(1, std::span<const float>(values), std::span<const DoubleDouble>(exact));
  EXPECT_EQ(rotary.tally().mismatches, 2);
  EXPECT_EQ(rotary.tally().signed_zeros, 0);
  EXPECT_EQ(rotary.tally().measured(), 3);
}

TEST(Accumulator, anAllowanceJudgesTheEntriesBeyondTheBudget) {
  // Row 0 has a bound of 0, row 1 a bound of |exact| 2^-22 (about 2 ULP at
  // 0.75; the ULP there is 2^-24).
  std::vector<float> values = {0.75f, 0.75f, 0.75f};
  const std::vector<DoubleDouble> exact(3, DoubleDouble{0.75, 0.0});
  values[1] = 0.75f + 0x1p-23f;  // 2 ULP: beyond the budget of 1, within the bound (3 ULP)
  values[2] = 0.75f + 0x1p-21f;  // 8 ULP: beyond both
  const RelativeAllowance allowance;
  Accumulator accumulator(FormatId::float32, 1.0, &allowance);
  accumulator.add_row(1, std::span<const float>(values), std::span<const DoubleDouble>(exact));
  EXPECT_EQ(accumulator.tally().beyond_budget, 2);
  EXPECT_EQ(accumulator.tally().beyond_bound, 1);
  EXPECT_EQ(accumulator.tally().worst_ratio_entry->key, (EntryKey{0, 1, 2}));
  EXPECT_EQ(accumulator.tally().worst_ratio, 0x1p-21 / (0.75 * 0x1p-22));
  const AllowanceDecision within = judge(allowance, 1, 1, exact[1], 0x1p-23);
  EXPECT_TRUE(within.admitted);
  const AllowanceDecision exact_entry = judge(allowance, 0, 1, exact[1], 0x1p-23);
  EXPECT_FALSE(exact_entry.admitted);  // a bound of 0 admits only the exact value
  EXPECT_EQ(exact_entry.ratio, infinity);
  accumulator.add_row(0, std::span<const float>(values), std::span<const DoubleDouble>(exact));
  EXPECT_EQ(accumulator.tally().beyond_bound, 3);
  EXPECT_EQ(accumulator.tally().worst_ratio, infinity);
  const Measurement m = accumulator.measurement(row_position, "test", 0);
  ASSERT_TRUE(m.abs_bound);
  EXPECT_EQ(m.abs_bound->name, "a test bound");
  EXPECT_EQ(m.abs_bound->beyond_ulp, 4);
  EXPECT_EQ(m.abs_bound->worst.position, 100);
  EXPECT_FALSE(within_budget(m));
}

// Bounds that vary by column and row: 0 in column 0 (ratio infinity), the
// same bound in columns 1 and 2 (equal ratios: ties), growing with the row
// elsewhere (a new worst ratio now and then, not every row).
class ColumnAllowance final : public Allowance {
 public:
  double bound(std::int64_t row, std::int64_t column, DoubleDouble exact) const override {
    if (column == 0) return 0.0;
    const double scale = column <= 2 ? 1.0 : 1.0 + static_cast<double>((row * 7 + column) % 13);
    return std::fabs(exact.hi) * 0x1p-20 * scale;
  }
  std::string_view name() const override { return "a column bound"; }
  std::string_view source() const override { return "|exact| 2^-20 times a column's scale"; }
};

TEST(Accumulator, aRowJudgedAgainstAnAllowanceGivesTheScalarRulesFigures) {
  // Errors from 0 to 2^20 ULP (every histogram bin), rows beyond the budget
  // in runs (judged in their first pass) and alone (judged in a second),
  // rows within it, rows of lengths that leave a vector tail.
  const ColumnAllowance allowance;
  const double budget = 2.0;
  std::mt19937_64 random(11);
  std::uniform_int_distribution<int> log_steps(0, 20);
  Accumulator accumulator(FormatId::float32, budget, &allowance);
  std::int64_t beyond = 0, beyond_bound = 0;
  double worst_ratio = -1.0;
  EntryKey worst_key{};
  Histogram histogram{ulp_histogram_edges(), std::vector<std::int64_t>(ulp_histogram_edges().size(), 0)};
  for (std::int64_t row = 0; row < 300; ++row) {
    const bool far = (row / 5) % 3 != 1 || row % 17 == 0;
    const std::size_t cols = row % 4 == 0 ? 61 : 64;
    std::vector<float> values(cols);
    std::vector<double> exact(cols);
    for (std::size_t c = 0; c < cols; ++c) {
      exact[c] = 0.3 + 0.6 * std::fabs(std::sin(0.1 * static_cast<double>(row) + static_cast<double>(c)));
      const int steps = far ? (1 << log_steps(random)) >> 1 : static_cast<int>(random() % 3);
      const auto rounded = static_cast<float>(exact[c]);
      values[c] = std::bit_cast<float>(std::bit_cast<std::uint32_t>(rounded) + static_cast<std::uint32_t>(steps));
      if (c == 2) {  // column 1's entry again: their ratios tie
        exact[c] = exact[1];
        values[c] = values[1];
      }
      const UlpError e = ulp_error(values[c], DoubleDouble{exact[c], 0.0}, f32);
      ASSERT_EQ(e.mismatch, Mismatch::none);
      count_in_histogram(histogram, e.ulps);
      if (!(e.ulps > budget)) continue;
      ++beyond;
      const AllowanceDecision d = judge(allowance, row, static_cast<std::int64_t>(c), DoubleDouble{exact[c], 0.0},
                                        absolute_error(values[c], DoubleDouble{exact[c], 0.0}));
      beyond_bound += d.admitted ? 0 : 1;
      const EntryKey key{0, row, static_cast<std::int64_t>(c)};
      if (d.ratio > worst_ratio || (d.ratio == worst_ratio && key < worst_key)) {
        worst_ratio = d.ratio;
        worst_key = key;
      }
    }
    accumulator.add_row(row, std::span<const float>(values), std::span<const double>(exact));
  }
  const Tally& t = accumulator.tally();
  ASSERT_GT(beyond, 1000);
  EXPECT_EQ(t.histogram, histogram.counts);
  EXPECT_GT(histogram.counts[histogram.counts.size() - 1], 0);  // above 65536 ULP
  EXPECT_EQ(t.beyond_budget, beyond);
  EXPECT_EQ(t.beyond_bound, beyond_bound);
  EXPECT_EQ(t.worst_ratio, infinity);  // column 0's bound of 0
  EXPECT_EQ(worst_ratio, infinity);
  ASSERT_TRUE(t.worst_ratio_entry);
  EXPECT_EQ(t.worst_ratio_entry->key, worst_key);
}

// Without a bound of 0, the largest finite ratio, its first entry and its bound.
TEST(Accumulator, theWorstFiniteRatioIsTheFirstEntryWithTheLargestRatio) {
  const RelativeAllowance allowance;  // |exact| 2^-22; 0 in row 0, which is not added
  Accumulator accumulator(FormatId::float32, 1.0, &allowance);
  std::mt19937_64 random(12);
  double worst = -1.0;
  EntryKey worst_key{};
  // Rows in a shuffled order: a later row that ties the worst so far with an
  // earlier key takes its place.
  std::vector<std::int64_t> order(199);
  std::iota(order.begin(), order.end(), 1);
  std::shuffle(order.begin(), order.end(), random);
  for (const std::int64_t row : order) {
    std::vector<float> values(24);
    std::vector<double> exact(24);
    for (std::size_t c = 0; c < values.size(); ++c) {
      exact[c] = 0.5 + 0.25 * static_cast<double>(c % 3);
      const auto steps = static_cast<std::uint32_t>(random() % 64);
      values[c] = std::bit_cast<float>(std::bit_cast<std::uint32_t>(static_cast<float>(exact[c])) + steps);
      const double abs_error = absolute_error(values[c], DoubleDouble{exact[c], 0.0});
      if (!(ulp_error(values[c], DoubleDouble{exact[c], 0.0}, f32).ulps > 1.0)) continue;
      const double ratio = abs_error / (exact[c] * 0x1p-22) + 0.0;
      const EntryKey key{0, row, static_cast<std::int64_t>(c)};
      if (ratio > worst || (ratio == worst && key < worst_key)) {
        worst = ratio;
        worst_key = key;
      }
    }
    accumulator.add_row(row, std::span<const float>(values), std::span<const double>(exact));
  }
  ASSERT_TRUE(accumulator.tally().worst_ratio_entry);
  EXPECT_EQ(accumulator.tally().worst_ratio, worst);
  EXPECT_EQ(accumulator.tally().worst_ratio_entry->key, worst_key);
  const double exact_at_worst = 0.5 + 0.25 * static_cast<double>(worst_key.column % 3);
  EXPECT_EQ(accumulator.tally().worst_ratio_bound, exact_at_worst * 0x1p-22);
}

TEST(Accumulator, aTieForTheWorstRatioGoesToTheEarliestEntry) {
  const RelativeAllowance allowance;  // |exact| 2^-22 outside row 0
  Accumulator accumulator(FormatId::float32, 1.0, &allowance);
  std::vector<float> values(9, 0.75f + 0x1p-23f);  // 2 ULP each: beyond the budget, within the bound
  const std::vector<double> exact(9, 0.75);
  values[3] = values[7] = 0.75f + 0x1p-20f;  // 16 ULP: the row's largest ratio, twice
  const auto add = [&](std::int64_t row) {
    accumulator.add_row(row, std::span<const float>(values), std::span<const double>(exact));
  };
  add(5);
  ASSERT_TRUE(accumulator.tally().worst_ratio_entry);
  EXPECT_EQ(accumulator.tally().worst_ratio_entry->key, (EntryKey{0, 5, 3}));
  add(2);  // the same ratio in an earlier row takes its place
  EXPECT_EQ(accumulator.tally().worst_ratio_entry->key, (EntryKey{0, 2, 3}));
  add(4);  // and a later one does not
  EXPECT_EQ(accumulator.tally().worst_ratio_entry->key, (EntryKey{0, 2, 3}));
  EXPECT_EQ(accumulator.tally().worst_ratio, 0x1p-20 / (0.75 * 0x1p-22));
  EXPECT_EQ(accumulator.tally().beyond_budget, 27);
  EXPECT_EQ(accumulator.tally().beyond_bound, 6);
}

TEST(MeasureAccuracy, isTheAccumulatorOverTheTablesRowsAtTheRequestsRows) {
  const Rows rows = synthetic_rows(12, 10, 6);
  Table table = make_table(12, 10, FormatId::float32);
  std::vector<DoubleDouble> exact;
  for (std::size_t r = 0; r < 12; ++r) {
    for (std::size_t c = 0; c < 10; ++c) {
      table.set(static_cast<std::int64_t>(r), static_cast<std::int64_t>(c), rows.values[r][c]);
      exact.push_back(rows.exact[r][c]);
    }
  }
  const Convention vaswani = *find_preset("vaswani");
  const Measurement m = measure_accuracy(table.view(), exact, vaswani, TableRequest{12, 10, 50}, 1.0, "test");
  Accumulator accumulator(FormatId::float32, 1.0);
  add_rows(accumulator, rows, 0, 12);
  const Measurement by_hand = accumulator.measurement([](std::int64_t row) { return row; }, "test", 0);
  EXPECT_EQ(m.worst.row, by_hand.worst.row + 50);
  EXPECT_EQ(m.worst.position, position_of_row(vaswani, m.worst.row));
  EXPECT_EQ(m.max_ulp, by_hand.max_ulp);
  EXPECT_EQ(m.ulp_histogram.counts, by_hand.ulp_histogram.counts);
  EXPECT_EQ(m.entries, 120);
  EXPECT_THROW((void)measure_accuracy(table.view(), {}, vaswani, TableRequest{12, 10, 0}, 1.0, "test"),
               std::invalid_argument);
}

}  // namespace
}  // namespace pecheck::accuracy
