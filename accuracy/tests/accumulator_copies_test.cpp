// A row handed by its distinct entries, each standing for its copies
// (RowColumns: a rotary cache's twin columns), gathers the tally of the whole
// row: the same counts, histogram, extremes, kept entries and allowance
// figures; only the RMS is summed in another order (within the bound derived
// below).
#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>
#include <random>
#include <vector>

#include "pecheck/accuracy/accumulator.hpp"

namespace pecheck::accuracy {
namespace {

// A bound that depends on the column only through its pair (columns 2k and
// 2k + 1 in the interleaved form, k and n + k in the halves form): the
// copies' promise. Varies with the row and pair, so the worst ratio moves.
class PairAllowance final : public Allowance {
 public:
  explicit PairAllowance(std::int64_t pairs_per_table, bool interleaved)
      : pairs_(pairs_per_table), interleaved_(interleaved) {}
  double bound(std::int64_t row, std::int64_t column, DoubleDouble exact) const override {
    const std::int64_t table_column = column % (2 * pairs_);
    const std::int64_t pair = interleaved_ ? table_column / 2 : table_column % pairs_;
    return std::fabs(exact.hi) * 0x1p-21 * (1.0 + static_cast<double>((row * 5 + pair) % 7));
  }
  std::string_view name() const override { return "a pair bound"; }
  std::string_view source() const override { return "|exact| 2^-21 times a pair's scale"; }

 private:
  std::int64_t pairs_;
  bool interleaved_;
};

struct CopiedRows {
  std::vector<std::vector<float>> whole, distinct;  // whole: every copy; distinct: one of each
  std::vector<std::vector<double>> whole_exact, distinct_exact;
  std::vector<std::int64_t> columns;  // each distinct entry's first column
};

// Rows of a cos table and a sin table of 2n columns each, every value twice
// (interleaved: columns 2k and 2k + 1; otherwise k and n + k), with errors
// from 0 to 2^20 ULP in runs of far rows, equal values (ties), NaN, infinity
// and a -0.
CopiedRows copied_rows(std::size_t n, bool interleaved, unsigned seed) {
  std::mt19937_64 random(seed);
  std::uniform_int_distribution<int> log_steps(0, 20);
  CopiedRows out;
  for (std::size_t table = 0; table < 2; ++table) {
    for (std::size_t k = 0; k < n; ++k) {
      const std::size_t column = interleaved ? 2 * k : k;
      out.columns.push_back(static_cast<std::int64_t>(table * 2 * n + column));
    }
  }
  for (std::int64_t row = 0; row < 240; ++row) {
    const bool far = (row / 4) % 3 != 1;
    std::vector<float> distinct(2 * n);
    std::vector<double> exact(2 * n);
    for (std::size_t e = 0; e < 2 * n; ++e) {
      exact[e] = 0.2 + 0.7 * std::fabs(std::sin(0.3 * static_cast<double>(row) + 1.7 * static_cast<double>(e)));
      const int steps = far ? (1 << log_steps(random)) >> 1 : static_cast<int>(random() % 3);
      const auto rounded = static_cast<float>(exact[e]);
      distinct[e] = std::bit_cast<float>(std::bit_cast<std::uint32_t>(rounded) + static_cast<std::uint32_t>(steps));
      if (e == 3) {  // entry 1's again: their figures tie
        exact[e] = exact[1];
        distinct[e] = distinct[1];
      }
    }
    if (row == 17) distinct[4] = std::nanf("");
    if (row == 18) distinct[n + 2] = std::numeric_limits<float>::infinity();
    if (row == 19) {
      exact[5] = 0.0;
      distinct[5] = -0.0F;
    }
    std::vector<float> whole(4 * n);
    std::vector<double> whole_exact(4 * n);
    for (std::size_t e = 0; e < 2 * n; ++e) {
      const auto first = static_cast<std::size_t>(out.columns[e]);
      const std::size_t second = interleaved ? first + 1 : first + n;
      whole[first] = whole[second] = distinct[e];
      whole_exact[first] = whole_exact[second] = exact[e];
    }
    out.whole.push_back(whole);
    out.whole_exact.push_back(whole_exact);
    out.distinct.push_back(distinct);
    out.distinct_exact.push_back(exact);
  }
  return out;
}

TEST(AccumulatorCopies, aRowOfDistinctEntriesGathersTheWholeRowsTally) {
  for (const bool interleaved : {true, false}) {
    for (const std::size_t n : {std::size_t{16}, std::size_t{13}}) {  // 13: rows with a vector tail
      SCOPED_TRACE(std::string(interleaved ? "interleaved" : "halves") + ", " + std::to_string(n) + " pairs");
      const CopiedRows rows = copied_rows(n, interleaved, 7 + static_cast<unsigned>(n));
      const PairAllowance allowance(static_cast<std::int64_t>(n), interleaved);
      Accumulator whole(FormatId::float32, 2.0, &allowance, SignedZero::mismatch);
      Accumulator distinct(FormatId::float32, 2.0, &allowance, SignedZero::mismatch);
      for (std::size_t r = 0; r < rows.whole.size(); ++r) {
        const auto row = static_cast<std::int64_t>(r);
        whole.add_row(row, std::span<const float>(rows.whole[r]), std::span<const double>(rows.whole_exact[r]));
        distinct.add_row(row, std::span<const float>(rows.distinct[r]), std::span<const double>(rows.distinct_exact[r]),
                         0, RowColumns{rows.columns, 2});
      }
      const Tally& a = whole.tally();
      Tally b = distinct.tally();
      ASSERT_GT(a.beyond_budget, 1000);
      ASSERT_GT(a.beyond_bound, 100);
      ASSERT_EQ(a.mismatches, 6);  // the NaN, the infinity and the -0, twice each
      ASSERT_TRUE(a.worst_ratio_entry.has_value());
      // Each row's squares summed in a fixed order, m terms within
      // gamma_(m-1) = (m-1)u / (1 - (m-1)u) of their exact sum in any order
      // (u = 2^-53; Higham, Accuracy and Stability, 4.2): rows of 4n and 2n
      // terms, the rows then summed exactly and rounded once (u): the totals
      // are within (gamma_(4n-1) + gamma_(2n-1) + 2u) of the exact total
      // apart, below (6n + 2)u with the denominators' room.
      const double tolerance = (6.0 * static_cast<double>(n) + 2.0) * 0x1p-53 * a.sum_squares.value();
      EXPECT_LE(std::fabs(a.sum_squares.value() - b.sum_squares.value()), tolerance)
          << "sums of squares " << a.sum_squares.value() << " and " << b.sum_squares.value() << ", tolerance "
          << tolerance;
      b.sum_squares = a.sum_squares;
      EXPECT_TRUE(a == b) << "entries " << a.entries << " / " << b.entries << ", beyond " << a.beyond_budget << " / "
                          << b.beyond_budget << ", beyond bound " << a.beyond_bound << " / " << b.beyond_bound
                          << ", worst column " << (a.worst ? a.worst->key.column : -1) << " / "
                          << (b.worst ? b.worst->key.column : -1) << ", worst ratio column "
                          << a.worst_ratio_entry->key.column << " / "
                          << (b.worst_ratio_entry ? b.worst_ratio_entry->key.column : -1);
    }
  }
}

}  // namespace
}  // namespace pecheck::accuracy
