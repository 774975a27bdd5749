// The accumulator's instruction-set variants (accumulator_kernels.hpp): every
// variant this CPU runs gathers the baseline's tally bit for bit (counts,
// histogram, sum of squares, kept entries, the allowance's counts and worst
// ratio) from the same rows: float and double values against double-double
// and plain double exact values, in every format, rows of every length modulo
// the vector width, values from exact to far off, zeros of either sign,
// infinities and NaNs, with and without the libm allowance; and its row
// bounds are the baseline's.
#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>
#include <random>
#include <span>
#include <string>
#include <vector>

#include "accumulator_kernels.hpp"
#include "pecheck/accuracy/accumulator.hpp"
#include "pecheck/accuracy/libm_allowance.hpp"
#include "pecheck/format.hpp"
#include "pecheck/isa.hpp"
#include "pecheck/reference/rotary_reference.hpp"
#include "pecheck/rotary_convention.hpp"
#include "pecheck/testing/isa_variants.hpp"
#include "pecheck/testing/presets.hpp"
#include "pecheck/ulp.hpp"

namespace pecheck::accuracy {
namespace {

struct Row {
  std::vector<double> values;
  std::vector<float> floats;  // values as float32 (for a float32 format)
  std::vector<DoubleDouble> exact;
  std::vector<double> exact_hi;  // exact's high words, as plain exact values
};

// A row of sin values at random angles, the values their roundings to
// `format` moved by a few ULPs (mostly 0 or 1, some far), with zeros of
// either sign, infinities and NaNs now and then.
Row make_row(std::mt19937_64& random, std::size_t n, const Format& format) {
  std::uniform_real_distribution<double> angle(-30.0, 30.0);
  std::uniform_int_distribution<int> kind(0, 99);
  Row row;
  for (std::size_t e = 0; e < n; ++e) {
    const double x = angle(random);
    DoubleDouble exact{std::sin(x), std::sin(x) * 0x1p-60};
    const int k = kind(random);
    const double ulp = ulp_of(exact, format);
    double value = round_to_format(exact.hi, format);
    if (k < 40) {
      value = round_to_format(value + ulp, format);
    } else if (k < 45) {
      value = round_to_format(value - 37.0 * ulp, format);
    } else if (k == 45) {
      exact = {0.0, 0.0};
      value = -0.0;
    } else if (k == 46) {
      value = std::numeric_limits<double>::infinity();
    } else if (k == 47) {
      value = std::numeric_limits<double>::quiet_NaN();
    } else if (k == 48) {
      exact = {std::ldexp(exact.hi, -30), 0.0};
    }
    row.values.push_back(value);
    row.floats.push_back(static_cast<float>(value));
    row.exact.push_back(exact);
    row.exact_hi.push_back(exact.hi);
  }
  return row;
}

// Every row through one variant's kernels, each row in the four forms its
// format allows, into one accumulator per form.
std::vector<Tally> tallies(const AccumulatorKernels& kernels, const std::vector<Row>& rows, FormatId format,
                           const Allowance* allowance) {
  std::vector<Accumulator> accumulators(4, Accumulator(format, 1.0, allowance, SignedZero::mismatch));
  for (std::size_t r = 0; r < rows.size(); ++r) {
    const Row& row = rows[r];
    const auto at = static_cast<std::int64_t>(r);
    // Two of the forms as a row of distinct entries (RowColumns): entry e
    // at column 2e + 1, standing for two.
    std::vector<std::int64_t> odd(row.values.size());
    for (std::size_t e = 0; e < odd.size(); ++e) odd[e] = 2 * static_cast<std::int64_t>(e) + 1;
    const RowColumns twinned{odd, 2};
    kernels.double_against_double_double(accumulators[0], at, row.values, row.exact, 0, {});
    kernels.double_against_double(accumulators[1], at, row.values, row.exact_hi, 0, twinned);
    if (format == FormatId::float64) continue;  // a float is not a float64 value
    kernels.float_against_double_double(accumulators[2], at, row.floats, row.exact, 1, twinned);
    kernels.float_against_double(accumulators[3], at, row.floats, row.exact_hi, 1, {});
  }
  std::vector<Tally> out;
  for (const Accumulator& a : accumulators) out.push_back(a.tally());
  return out;
}

TEST(AccumulatorVariants, everyVariantGathersTheBaselinesTallyBitForBit) {
  const std::vector<isa::Variant>& variants = isa::variants();
  const RotaryConvention llama = testing::rotary_preset("llama3.1");
  const std::int64_t columns = rotary_columns(llama);
  const LibmAllowance allowance(llama, *find_computation_model("hf-float32"), 70000, columns);
  std::mt19937_64 random(20261127);
  std::int64_t compared = 0;
  for (const FormatId format : {FormatId::float32, FormatId::float64, FormatId::float16, FormatId::bfloat16}) {
    for (const bool with_allowance : {false, true}) {
      // With the allowance, a row is a cache row's cos and sin columns;
      // without, rows of every length up to past two vectors of 16.
      std::vector<Row> rows;
      for (std::size_t r = 0; r < 40; ++r) {
        const std::size_t n = with_allowance ? 2 * static_cast<std::size_t>(columns) : 1 + r;
        rows.push_back(make_row(random, n, format_of(format)));
      }
      const Allowance* a = with_allowance ? &allowance : nullptr;
      const std::vector<Tally> baseline = tallies(accumulator_kernels(0), rows, format, a);
      EXPECT_GT(baseline[0].beyond_budget, 0);
      EXPECT_GT(baseline[0].mismatches, 0);
      for (std::size_t v = 1; v < variants.size(); ++v) {
        if (!variants[v].runs_here) continue;
        const std::vector<Tally> other = tallies(accumulator_kernels(v), rows, format, a);
        for (std::size_t form = 0; form < baseline.size(); ++form) {
          EXPECT_TRUE(other[form] == baseline[form])
              << variants[v].name << " " << format_of(format).name << (with_allowance ? " with" : " without")
              << " the allowance, form " << form;
        }
        ++compared;
      }
    }
  }
  testing::expect_compared_if_any_variant_runs(compared);
}

TEST(AccumulatorVariants, everyVariantGivesTheBaselinesLibmRowBounds) {
  const std::vector<isa::Variant>& variants = isa::variants();
  const RotaryConvention llama = testing::rotary_preset("llama3.1");
  const ComputationModel model = *find_computation_model("hf-float32");
  std::vector<double> inv_freq;
  for (std::int64_t c = 0; c < rotary_columns(llama); ++c) {
    inv_freq.push_back(reference::rotary_model_inv_freq(llama, rotary_column_frequency(llama, c), model));
  }
  std::int64_t compared = 0;
  // Entries of given columns too (a row of distinct entries): every third
  // column, last to first.
  std::vector<std::int64_t> given;
  for (auto c = static_cast<std::int64_t>(inv_freq.size()) - 1; c >= 0; c -= 3) given.push_back(c);
  for (const double position : {0.0, 1.0, 4097.0, 70000.0, 16777215.0}) {
    for (const bool by_column : {false, true}) {
      // Two cache rows' columns and a few more: the repetition and a cut run.
      const LibmRowBounds row =
          by_column ? LibmRowBounds{position, 1.25, 0x1p-22, inv_freq.data(), inv_freq.size(), given.data(), -126, 23}
                    : LibmRowBounds{position, 1.25, 0x1p-22, inv_freq.data(), inv_freq.size(), nullptr, -126, 23};
      const std::size_t count = by_column ? given.size() : 2 * inv_freq.size() + 5;
      std::vector<double> baseline(count), other(count);
      ASSERT_TRUE(accumulator_kernels(0).libm_row_bounds(row, baseline.data(), count));
      for (std::size_t v = 1; v < variants.size(); ++v) {
        if (!variants[v].runs_here) continue;
        ASSERT_TRUE(accumulator_kernels(v).libm_row_bounds(row, other.data(), count));
        for (std::size_t c = 0; c < count; ++c) {
          ASSERT_EQ(std::bit_cast<std::uint64_t>(other[c]), std::bit_cast<std::uint64_t>(baseline[c]))
              << variants[v].name << " position " << position << " entry " << c;
        }
        ++compared;
      }
    }
  }
  testing::expect_compared_if_any_variant_runs(compared);
}

}  // namespace
}  // namespace pecheck::accuracy
