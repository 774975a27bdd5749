// Ziv's strategy: an entry whose rounding the first precision cannot decide
// is evaluated again at a higher one, the count of such entries is reported,
// and the result never depends on where the evaluation started.
//
// At the default first precision (128 bits) an undecided float64 rounding
// needs an exact value within ~2^-128 relative of a rounding boundary, which
// no search over 2^24 positions can be expected to find; the tests start
// lower, through the internal entry points, to make escalation common.
#include <gtest/gtest.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <iostream>
#include <vector>

#include "../src/entry_evaluator.hpp"
#include "../src/table_builder.hpp"
#include "pecheck/reference/reference.hpp"
#include "pecheck/testing/table_values.hpp"

using pecheck::testing::flat_at;

namespace pecheck::reference {
namespace {

bool same_bits(double a, double b) { return std::bit_cast<std::uint64_t>(a) == std::bit_cast<std::uint64_t>(b); }

struct Case {
  const char* preset;
  TableRequest request;
  FormatId format;
};

// Entries that need a real evaluation: not in a zero row or zero column, position not 0.
std::int64_t evaluated_entries(const Convention& convention, const TableRequest& request) {
  const std::vector<ColumnSpec> columns = column_layout(convention, request.dim);
  const auto nonzero_columns = std::count_if(columns.begin(), columns.end(),
                                             [](const ColumnSpec& c) { return c.kind != ColumnKind::zero; });
  std::int64_t rows = 0;
  for (std::int64_t r = 0; r < request.rows; ++r) {
    const std::int64_t row = r + request.row_offset;
    if (!is_zero_row(convention, row) && position_of_row(convention, row) != 0) ++rows;
  }
  return rows * nonzero_columns;
}

// Below ~101 bits no first evaluation can promise the 2^-100 exact values,
// so every evaluated entry escalates, and the count must say exactly that;
// the values must still be those of the default start, bit for bit. A wrong
// error bound would show here: a low start decides roundings on bounds that
// are too tight, and the tables would differ.
TEST(ReferenceEscalation, resultsDoNotDependOnTheFirstPrecisionAndEscalationsAreCounted) {
  const Case cases[] = {
      {"vaswani", {24, 33, 5}, FormatId::float16},
      {"fairseq", {12, 20, 0}, FormatId::float64},
      {"musicgen", {16, 17, 9000}, FormatId::bfloat16},
      {"tf-tutorial", {16, 12, max_exact_position - 16}, FormatId::float32},
  };
  for (const Case& c : cases) {
    const Convention convention = *find_preset(c.preset);
    const Format& format = format_of(c.format);
    const ReferenceTable baseline = build_reference_table(convention, c.request, format, 1, default_first_precision);
    for (mpfr_prec_t first : {8, 24, 53, 64}) {
      const ReferenceTable low = build_reference_table(convention, c.request, format, 2, first);
      EXPECT_EQ(low.escalations, evaluated_entries(convention, c.request)) << c.preset << " first=" << first;
      for (std::size_t k = 0; k < baseline.exact.size(); ++k) {
        ASSERT_TRUE(same_bits(flat_at(low.rounded, static_cast<std::int64_t>(k)), flat_at(baseline.rounded, static_cast<std::int64_t>(k))))
            << c.preset << " first=" << first << " entry " << k;
        ASSERT_TRUE(same_bits(low.exact[k].hi, baseline.exact[k].hi)) << c.preset << " entry " << k;
        ASSERT_TRUE(same_bits(low.exact[k].lo, baseline.exact[k].lo)) << c.preset << " entry " << k;
      }
    }
  }
}

// Distance from an exact value to the nearest float64 rounding boundary (a
// midpoint between doubles), relative to the value: hi = RN(x), so the
// nearest midpoint is hi + sign(lo) ulp(hi)/2, at ulp(hi)/2 - |lo| from x.
double relative_distance_to_float64_boundary(const DoubleDouble& x) {
  const double half_ulp = std::ldexp(std::nextafter(std::fabs(x.hi), INFINITY) - std::fabs(x.hi), -1);
  return (half_ulp - std::fabs(x.lo)) / std::fabs(x.hi);
}

// With a 64-bit start the bound is ~2^-64 relative: an exact value closer
// than that to a float64 boundary cannot be decided, one farther than
// ~2^-62 always is. The search ranks the entries of a table by distance.
TEST(ReferenceEscalation, entriesNearAFloat64RoundingBoundaryEscalate) {
  const Convention vaswani = *find_preset("vaswani");
  const TableRequest request{512, 128, 1000};
  const Format& float64 = format_of(FormatId::float64);
  const ReferenceTable table = reference_table(vaswani, request, FormatId::float64, 0);

  std::vector<std::pair<double, std::size_t>> ranked;
  for (std::size_t k = 0; k < table.exact.size(); ++k) {
    if (table.exact[k].hi != 0.0) ranked.emplace_back(relative_distance_to_float64_boundary(table.exact[k]), k);
  }
  std::sort(ranked.begin(), ranked.end());

  EntryEvaluator low_start(vaswani, request.dim, 64);
  EntryEvaluator default_start(vaswani, request.dim);
  const EntryQuery rounding_only{&float64, false};
  auto evaluate = [&](EntryEvaluator& evaluator, std::size_t k) {
    const auto row = static_cast<std::int64_t>(k) / request.dim + request.row_offset;
    const auto col = static_cast<std::int64_t>(k) % request.dim;
    return evaluator.entry(row, col, rounding_only);
  };

  int escalated_near = 0;
  for (std::size_t n = 0; n < 8; ++n) {
    const auto [distance, k] = ranked[n];
    const EntryResult result = evaluate(low_start, k);
    EXPECT_EQ(result.rounded, flat_at(table.rounded, static_cast<std::int64_t>(k)));
    if (result.escalated) ++escalated_near;
    std::cout << "entry " << k << ": " << std::log2(distance) << " (log2 relative distance to a float64 boundary), "
              << (result.escalated ? "escalated" : "decided") << " from 64 bits, "
              << (evaluate(default_start, k).escalated ? "escalated" : "decided") << " from 128 bits\n";
  }
  EXPECT_GT(ranked.front().first, 0.0);
  ASSERT_LT(ranked[7].first, std::ldexp(1.0, -66)) << "the table should hold entries this close to a boundary";
  EXPECT_GT(escalated_near, 0);

  // Far from every boundary the first evaluation decides.
  for (std::size_t n = ranked.size() - 8; n < ranked.size(); ++n) {
    ASSERT_GT(ranked[n].first, std::ldexp(1.0, -60));
    EXPECT_FALSE(evaluate(low_start, ranked[n].second).escalated);
  }
}

}  // namespace
}  // namespace pecheck::reference
