// The passes of an accumulator without a histogram (row_ulp_budget,
// row_ulp_budget_judged): in every instruction-set variant this CPU runs,
// the same totals and judgement as the histogram's passes, bit for bit, with
// the budget's count alone (above[0] for a plain row, the judgement's for a
// judged one), over rows of every length modulo the vector width, errors
// from 0 to 2^23 ULP, NaNs, zeros and bounds of 0.
#include <gtest/gtest.h>

#include <array>
#include <bit>
#include <cmath>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "pecheck/accuracy/measurement.hpp"
#include "pecheck/accuracy/ulp_kernel.hpp"
#include "pecheck/isa.hpp"
#include "ulp_kernels.hpp"

namespace pecheck::accuracy {
namespace {

constexpr double budget = 2.0;

// Every figure but the threshold counts.
void expect_same_figures(const RowTotals& a, const RowTotals& b, const std::string& where) {
  EXPECT_EQ(a.common, b.common) << where;
  EXPECT_EQ(std::bit_cast<std::uint64_t>(a.squares), std::bit_cast<std::uint64_t>(b.squares)) << where;
  EXPECT_EQ(std::bit_cast<std::uint64_t>(a.max_ulps), std::bit_cast<std::uint64_t>(b.max_ulps)) << where;
  EXPECT_EQ(std::bit_cast<std::uint64_t>(a.max_abs_error), std::bit_cast<std::uint64_t>(b.max_abs_error)) << where;
  EXPECT_EQ(std::bit_cast<std::uint64_t>(a.min_exact_magnitude), std::bit_cast<std::uint64_t>(b.min_exact_magnitude))
      << where;
  EXPECT_EQ(a.largest_value_bits, b.largest_value_bits) << where;
}

struct Rows {
  std::vector<double> doubles, plain, bounds;
  std::vector<float> floats;
  std::vector<DoubleDouble> pairs;
};

// Errors from 0 to 2^23 ULP of `format`, a NaN and a zero now and then,
// bounds of 0 in a few entries.
Rows rows_of(std::size_t length, const Format& format, std::mt19937_64& random) {
  std::uniform_int_distribution<int> log_off(0, 24);
  Rows r{std::vector<double>(length), std::vector<double>(length), std::vector<double>(length),
         std::vector<float>(length), std::vector<DoubleDouble>(length)};
  for (std::size_t e = 0; e < length; ++e) {
    const double x = 0.25 + 0.5 * std::fabs(std::sin(static_cast<double>(e) + 0.5));
    r.plain[e] = x;
    r.pairs[e] = {x, std::ldexp(x, -60)};
    r.doubles[e] = e % 97 == 5   ? std::nan("")
                   : e % 89 == 3 ? 0.0
                                 : x + std::ldexp(static_cast<double>(1 << log_off(random)) / 2.0, -format.precision);
    r.floats[e] = static_cast<float>(r.doubles[e]);
    r.bounds[e] = e % 11 == 4 ? 0.0 : x * std::ldexp(1.0, 6 - format.precision) * static_cast<double>(e % 5 + 1);
  }
  return r;
}

TEST(BudgetPasses, countTheBudgetAsTheHistogramsPassesDoWithTheSameFigures) {
  const std::vector<double> edges = ulp_histogram_edges();
  const std::array<double, row_thresholds> plain_thresholds = {edges[0], edges[1], edges[2], edges[3], budget};
  std::array<double, judged_thresholds> judged_thresholds_{};
  for (std::size_t k = 0; k + 1 < edges.size(); ++k) judged_thresholds_[k] = edges[k];
  judged_thresholds_.back() = budget;
  std::mt19937_64 random(20261128);
  int compared = 0;
  for (std::size_t v = 0; v < isa::variants().size(); ++v) {
    if (!isa::variants()[v].runs_here) continue;
    const UlpKernels& k = ulp_kernels(v);
    for (const FormatId id : {FormatId::float32, FormatId::float64, FormatId::bfloat16}) {
      const Format& format = format_of(id);
      for (const std::size_t length : {1, 7, 8, 9, 16, 61, 256}) {
        const Rows r = rows_of(length, format, random);
        const std::string where =
            isa::variants()[v].name + " " + std::string(format.name) + " length " + std::to_string(length);
        // Plain rows: above[0] is the histogram pass's budget count.
        const RowTotals plain[4][2] = {
            {k.float_against_double_double(r.floats, r.pairs, format, plain_thresholds, nullptr),
             k.budget_float_against_double_double(r.floats, r.pairs, format, budget)},
            {k.double_against_double_double(r.doubles, r.pairs, format, plain_thresholds, nullptr),
             k.budget_double_against_double_double(r.doubles, r.pairs, format, budget)},
            {k.float_against_double(r.floats, r.plain, format, plain_thresholds, nullptr),
             k.budget_float_against_double(r.floats, r.plain, format, budget)},
            {k.double_against_double(r.doubles, r.plain, format, plain_thresholds, nullptr),
             k.budget_double_against_double(r.doubles, r.plain, format, budget)}};
        for (const auto& [full, alone] : plain) {
          expect_same_figures(full, alone, where);
          EXPECT_EQ(alone.above[0], full.above[row_thresholds - 1]) << where;
          for (std::size_t t = 1; t < judged_thresholds; ++t) EXPECT_EQ(alone.above[t], 0) << where;
          ++compared;
        }
        // Judged rows: the same judgement, every count but its own 0.
        for (const double floor : {-1.0, 0.5, 4.0}) {
          RowJudgement full[4], alone[4];
          const RowTotals judged[4][2] = {
              {k.judged_float_against_double_double(r.floats, r.pairs, format, judged_thresholds_, r.bounds, budget,
                                                    floor, full[0]),
               k.budget_judged_float_against_double_double(r.floats, r.pairs, format, r.bounds, budget, floor,
                                                           alone[0])},
              {k.judged_double_against_double_double(r.doubles, r.pairs, format, judged_thresholds_, r.bounds, budget,
                                                     floor, full[1]),
               k.budget_judged_double_against_double_double(r.doubles, r.pairs, format, r.bounds, budget, floor,
                                                            alone[1])},
              {k.judged_float_against_double(r.floats, r.plain, format, judged_thresholds_, r.bounds, budget, floor,
                                             full[2]),
               k.budget_judged_float_against_double(r.floats, r.plain, format, r.bounds, budget, floor, alone[2])},
              {k.judged_double_against_double(r.doubles, r.plain, format, judged_thresholds_, r.bounds, budget, floor,
                                              full[3]),
               k.budget_judged_double_against_double(r.doubles, r.plain, format, r.bounds, budget, floor, alone[3])}};
          for (int j = 0; j < 4; ++j) {
            expect_same_figures(judged[j][0], judged[j][1], where);
            EXPECT_EQ(alone[j].beyond, full[j].beyond) << where;
            EXPECT_EQ(alone[j].beyond_bound, full[j].beyond_bound) << where;
            EXPECT_EQ(alone[j].may_reach_floor, full[j].may_reach_floor) << where;
            for (std::size_t t = 0; t < judged_thresholds; ++t) EXPECT_EQ(judged[j][1].above[t], 0) << where;
            ++compared;
          }
        }
      }
    }
  }
  EXPECT_GT(compared, 0);
}

}  // namespace
}  // namespace pecheck::accuracy
