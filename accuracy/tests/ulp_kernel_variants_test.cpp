// The ULP kernel's instruction-set variants (pecheck/isa.hpp): every variant
// this CPU runs gives the baseline's figures bit for bit, entry by entry and
// row by row, in every format, for float and double values against
// double-double and plain double exact values, over rows of every length
// modulo the vector width (the tail's lanes) and values from exact to far off.
#include <gtest/gtest.h>

#include <array>
#include <bit>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <random>
#include <span>
#include <string>
#include <vector>

#include "pecheck/accuracy/measurement.hpp"
#include "pecheck/accuracy/ulp_kernel.hpp"
#include "pecheck/isa.hpp"
#include "pecheck/testing/isa_variants.hpp"
#include "ulp_kernels.hpp"

namespace pecheck::accuracy {
namespace {

constexpr std::array<double, row_thresholds> thresholds = {0.0625, 0.25, 0.5, 1.0, 2.0};

bool same_totals(const RowTotals& a, const RowTotals& b) {
  return a.common == b.common && std::bit_cast<std::uint64_t>(a.squares) == std::bit_cast<std::uint64_t>(b.squares) &&
         std::bit_cast<std::uint64_t>(a.max_ulps) == std::bit_cast<std::uint64_t>(b.max_ulps) &&
         std::bit_cast<std::uint64_t>(a.max_abs_error) == std::bit_cast<std::uint64_t>(b.max_abs_error) &&
         std::bit_cast<std::uint64_t>(a.min_exact_magnitude) == std::bit_cast<std::uint64_t>(b.min_exact_magnitude) &&
         a.above == b.above && a.largest_value_bits == b.largest_value_bits;
}

struct Stored {
  std::vector<double> ulps, abs_error;
  std::vector<unsigned char> common;
  bool operator==(const Stored& o) const {
    return std::memcmp(ulps.data(), o.ulps.data(), ulps.size() * sizeof(double)) == 0 &&
           std::memcmp(abs_error.data(), o.abs_error.data(), abs_error.size() * sizeof(double)) == 0 &&
           common == o.common;
  }
};

// One kernel of a table on one row: totals without storing, with storing, and the stored figures.
template <typename Value, typename Exact, typename Kernel>
std::pair<std::pair<RowTotals, RowTotals>, Stored> run(Kernel kernel, const std::vector<Value>& values,
                                                       const std::vector<Exact>& exact, const Format& format) {
  Stored s{std::vector<double>(values.size()), std::vector<double>(values.size()),
           std::vector<unsigned char>(values.size())};
  const RowErrors store{s.ulps.data(), s.abs_error.data(), s.common.data()};
  const RowTotals plain = kernel(values, exact, format, thresholds, nullptr);
  const RowTotals stored = kernel(values, exact, format, thresholds, &store);
  return {{plain, stored}, s};
}

TEST(UlpKernelVariants, everyVariantGivesTheBaselinesFiguresBitForBit) {
  const std::vector<isa::Variant>& variants = isa::variants();
  std::mt19937_64 random(20261127);
  std::uniform_real_distribution<double> angle(-30.0, 30.0);
  std::uniform_int_distribution<int> off(-40, 40);
  int compared = 0;
  for (const FormatId id : {FormatId::float64, FormatId::float32, FormatId::float16, FormatId::bfloat16}) {
    const Format& format = format_of(id);
    for (const std::size_t length : {1, 7, 8, 9, 16, 61, 1024}) {
      std::vector<double> doubles(length);
      std::vector<float> floats(length);
      std::vector<double> plain(length);
      std::vector<DoubleDouble> pairs(length);
      for (std::size_t e = 0; e < length; ++e) {
        const double x = std::sin(angle(random));
        plain[e] = x;
        pairs[e] = {x, std::ldexp(x, -60) * (e % 3 == 0 ? -1.0 : 1.0)};
        // The rounding a few of the format's ulps off, a zero, a NaN now and then.
        const double r = std::ldexp(std::nearbyint(std::ldexp(x, format.precision)), -format.precision);
        doubles[e] = e % 97 == 5   ? std::nan("")
                     : e % 89 == 3 ? 0.0
                                   : r + off(random) * std::ldexp(1.0, -format.precision);
        floats[e] = static_cast<float>(doubles[e]);
      }
      const UlpKernels& base = ulp_kernels(0);
      const auto ff = run(base.float_against_double_double, floats, pairs, format);
      const auto df = run(base.double_against_double_double, doubles, pairs, format);
      const auto fp = run(base.float_against_double, floats, plain, format);
      const auto dp = run(base.double_against_double, doubles, plain, format);
      for (std::size_t v = 1; v < variants.size(); ++v) {
        if (!variants[v].runs_here) continue;
        const UlpKernels& other = ulp_kernels(v);
        const std::string where =
            variants[v].name + " " + std::string(format.name) + " length " + std::to_string(length);
        for (const auto& [expected, got] :
             {std::pair{ff, run(other.float_against_double_double, floats, pairs, format)},
              std::pair{df, run(other.double_against_double_double, doubles, pairs, format)},
              std::pair{fp, run(other.float_against_double, floats, plain, format)},
              std::pair{dp, run(other.double_against_double, doubles, plain, format)}}) {
          EXPECT_TRUE(same_totals(expected.first.first, got.first.first)) << where;
          EXPECT_TRUE(same_totals(expected.first.second, got.first.second)) << where;
          EXPECT_TRUE(expected.second == got.second) << where;
          ++compared;
        }
      }
    }
  }
  testing::expect_compared_if_any_variant_runs(compared);
}

// A judged row's kernels (row_ulp_errors_judged): the totals over every
// histogram edge and the judgement against bounds, bit for bit.
TEST(UlpKernelVariants, everyVariantJudgesARowAsTheBaselineDoes) {
  const std::vector<isa::Variant>& variants = isa::variants();
  const std::vector<double> edges = ulp_histogram_edges();
  std::array<double, judged_thresholds> judged{};
  for (std::size_t k = 0; k + 1 < edges.size(); ++k) judged[k] = edges[k];
  judged.back() = 2.0;
  std::mt19937_64 random(20261128);
  std::uniform_int_distribution<int> log_off(0, 24);
  int compared = 0;
  const auto same = [](const RowJudgement& a, const RowJudgement& b) {
    return a.beyond == b.beyond && a.beyond_bound == b.beyond_bound && a.may_reach_floor == b.may_reach_floor;
  };
  for (const FormatId id : {FormatId::float32, FormatId::float64}) {
    const Format& format = format_of(id);
    for (const std::size_t length : {1, 7, 8, 9, 61, 256}) {
      std::vector<double> doubles(length), plain(length), bounds(length);
      std::vector<float> floats(length);
      std::vector<DoubleDouble> pairs(length);
      for (std::size_t e = 0; e < length; ++e) {
        const double x = 0.25 + 0.5 * std::fabs(std::sin(static_cast<double>(e) + 0.5));
        plain[e] = x;
        pairs[e] = {x, std::ldexp(x, -60)};
        // Errors from 0 to 2^23 ULP; a NaN and a zero now and then; bounds of 0 in a few entries.
        doubles[e] = e % 97 == 5   ? std::nan("")
                     : e % 89 == 3 ? 0.0
                                   : x + std::ldexp(static_cast<double>(1 << log_off(random)) / 2.0, -format.precision);
        floats[e] = static_cast<float>(doubles[e]);
        bounds[e] = e % 11 == 4 ? 0.0 : x * std::ldexp(1.0, 6 - format.precision) * static_cast<double>(e % 5 + 1);
      }
      for (const double floor : {-1.0, 0.5, 4.0}) {
        const UlpKernels& base = ulp_kernels(0);
        RowJudgement expected[4], got[4];
        const RowTotals t[4] = {
            base.judged_float_against_double_double(floats, pairs, format, judged, bounds, 2.0, floor, expected[0]),
            base.judged_double_against_double_double(doubles, pairs, format, judged, bounds, 2.0, floor, expected[1]),
            base.judged_float_against_double(floats, plain, format, judged, bounds, 2.0, floor, expected[2]),
            base.judged_double_against_double(doubles, plain, format, judged, bounds, 2.0, floor, expected[3])};
        for (std::size_t v = 1; v < variants.size(); ++v) {
          if (!variants[v].runs_here) continue;
          const UlpKernels& other = ulp_kernels(v);
          const RowTotals u[4] = {
              other.judged_float_against_double_double(floats, pairs, format, judged, bounds, 2.0, floor, got[0]),
              other.judged_double_against_double_double(doubles, pairs, format, judged, bounds, 2.0, floor, got[1]),
              other.judged_float_against_double(floats, plain, format, judged, bounds, 2.0, floor, got[2]),
              other.judged_double_against_double(doubles, plain, format, judged, bounds, 2.0, floor, got[3])};
          for (int k = 0; k < 4; ++k) {
            const std::string where = variants[v].name + " " + std::string(format.name) + " length " +
                                      std::to_string(length) + " kernel " + std::to_string(k);
            EXPECT_TRUE(same_totals(t[k], u[k])) << where;
            EXPECT_TRUE(same(expected[k], got[k])) << where;
            ++compared;
          }
        }
      }
    }
  }
  testing::expect_compared_if_any_variant_runs(compared);
}

}  // namespace
}  // namespace pecheck::accuracy
