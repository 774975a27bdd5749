// The ULP kernel's instruction-set variants (pecheck/isa.hpp): every variant
// this CPU runs gives the baseline's figures bit for bit, entry by entry and
// row by row, in every format, for float and double values against
// double-double and plain double exact values, over rows of every length
// modulo the vector width (the tail's lanes) and values from exact to far off.
#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <random>
#include <span>
#include <string>
#include <vector>

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

}  // namespace
}  // namespace pecheck::accuracy
