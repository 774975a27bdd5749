// A rotary cache's twin columns (rotary_twin_columns.hpp): which columns
// hold one frequency twice in each layout, a row's distinct entries only
// when every second copy equals its first bit for bit, and the exact values
// of those entries from a row by frequency.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <vector>

#include "../src/rotary_twin_columns.hpp"
#include "pecheck/testing/presets.hpp"

namespace pecheck::validate {
namespace {

// A row of 2n columns per table whose column c holds value(frequency of c).
std::vector<float> row_of(const RotaryConvention& c, std::int64_t cols, float base) {
  std::vector<float> row(static_cast<std::size_t>(cols));
  for (std::int64_t k = 0; k < cols; ++k) {
    row[static_cast<std::size_t>(k)] = base + static_cast<float>(rotary_column_frequency(c, k));
  }
  return row;
}

TEST(TwinColumns, eachLayoutsCopiesAreFoundAndADifferingCopyIsSeen) {
  for (const RotaryLayout layout : {RotaryLayout::rotate_half, RotaryLayout::interleaved}) {
    RotaryConvention c = testing::rotary_preset("llama2");
    c.layout = layout;
    const std::int64_t cols = rotary_columns(c);
    const TwinColumns twins(c, cols);
    ASSERT_TRUE(twins.apply());
    const auto n = static_cast<std::size_t>(cols / 2);
    ASSERT_EQ(twins.entries(), 2 * n);
    // The entries' columns: the first copies in column order, cos's then sin's, two copies each.
    const accuracy::RowColumns columns = twins.row_columns();
    EXPECT_EQ(columns.copies, 2);
    for (std::size_t e = 0; e < n; ++e) {
      const std::int64_t first =
          layout == RotaryLayout::interleaved ? 2 * static_cast<std::int64_t>(e) : static_cast<std::int64_t>(e);
      EXPECT_EQ(columns.column[e], first);
      EXPECT_EQ(columns.column[n + e], cols + first);
    }
    std::vector<float> cos = row_of(c, cols, 0.25F), sin = row_of(c, cols, -0.5F);
    std::vector<float> out(twins.entries());
    ASSERT_TRUE(twins.distinct(cos.data(), sin.data(), out.data()));
    for (std::size_t e = 0; e < n; ++e) {
      EXPECT_EQ(out[e], 0.25F + static_cast<float>(e));
      EXPECT_EQ(out[n + e], -0.5F + static_cast<float>(e));
    }
    // A second copy one bit off, and a -0 against a +0: compared whole.
    const auto second = static_cast<std::size_t>(layout == RotaryLayout::interleaved ? 7 : n + 3);
    sin[second] = std::nextafter(sin[second], 2.0F);
    EXPECT_FALSE(twins.distinct(cos.data(), sin.data(), out.data()));
    sin = row_of(c, cols, -0.5F);
    cos[0] = 0.0F;
    cos[layout == RotaryLayout::interleaved ? 1 : n] = -0.0F;
    EXPECT_FALSE(twins.distinct(cos.data(), sin.data(), out.data()));
  }
}

TEST(TwinColumns, theComplexFormAndAnotherWidthHaveNoTwins) {
  RotaryConvention c = testing::rotary_preset("llama2");
  c.layout = RotaryLayout::complex_form;
  EXPECT_FALSE(TwinColumns(c, rotary_columns(c)).apply());
  const RotaryConvention llama = testing::rotary_preset("llama2");
  EXPECT_FALSE(TwinColumns(llama, rotary_columns(llama) - 2).apply());
}

TEST(TwinColumns, exactValuesByFrequencyAreTheEntriesWhereverSinsStart) {
  const RotaryConvention c = testing::rotary_preset("llama2");
  const TwinColumns twins(c, rotary_columns(c));
  const std::size_t n = twins.entries() / 2;
  for (const std::size_t frequencies : {n, n + 3}) {
    std::vector<double> by_frequency(2 * frequencies);
    for (std::size_t f = 0; f < frequencies; ++f) {
      by_frequency[f] = 1.0 + static_cast<double>(f);
      by_frequency[frequencies + f] = -1.0 - static_cast<double>(f);
    }
    std::vector<double> scratch(twins.entries());
    const std::span<const double> exact = twins.distinct_exact(by_frequency, scratch.data());
    ASSERT_EQ(exact.size(), 2 * n);
    for (std::size_t e = 0; e < n; ++e) {
      EXPECT_EQ(exact[e], 1.0 + static_cast<double>(e)) << frequencies;
      EXPECT_EQ(exact[n + e], -1.0 - static_cast<double>(e)) << frequencies;
    }
  }
}

}  // namespace
}  // namespace pecheck::validate
