// narrowest_format reads a float32 table's values by their bits (a value is
// a bfloat16 value when its low 16 bits are zero, a float16 value by its
// exponent and low fraction bits): it decides as first_entry_outside, which
// rounds each value to the narrow format and compares, for every float32
// pattern tried here: every upper half with low halves that keep or break
// each format's fraction, and every exponent with fraction bits at and
// around each format's last place (float16's subnormal range included).
// (Checked once over all 2^32 patterns while it was written.)
#include <gtest/gtest.h>

#include <bit>
#include <cstdint>
#include <vector>

#include "../src/narrow_format.hpp"
#include "pecheck/table.hpp"

namespace pecheck::validate {
namespace {

// Eight values every format holds (neither zero nor +-1: narrowest_format
// looks past a table of only those), then the value tried.
constexpr double telling[] = {0.5, 0.25, 0.75, 1.5, 2.0, 3.0, 0.125, 0.375};

FormatId by_rounding(const Table& table) {
  for (FormatId id : {FormatId::bfloat16, FormatId::float16}) {
    if (!first_entry_outside(table, id)) return id;
  }
  return FormatId::float32;
}

std::vector<std::uint32_t> patterns() {
  std::vector<std::uint32_t> out;
  for (std::uint32_t high = 0; high <= 0xffffU; ++high) {
    for (std::uint32_t low : {0x0000U, 0x0001U, 0x1000U, 0x2000U, 0x0fffU, 0xe000U, 0x8000U, 0xffffU}) {
      out.push_back(high << 16 | low);
    }
  }
  for (std::uint32_t sign : {0U, 0x80000000U}) {
    for (std::uint32_t exponent = 0; exponent < 256; ++exponent) {
      for (int k = 0; k <= 23; ++k) {
        const std::uint32_t bit = std::uint32_t{1} << k;
        for (std::uint32_t fraction : {bit & 0x7fffffU, bit - 1U, 0x7fffffU ^ (bit & 0x7fffffU), 0x400000U | bit >> 1}) {
          out.push_back(sign | exponent << 23 | (fraction & 0x7fffffU));
        }
      }
    }
  }
  return out;
}

TEST(NarrowFormat, aFloat32TablesFormatByItsBitsIsTheFormatThatRoundsNoValue) {
  Table table = make_table(1, 9, FormatId::float32);
  const std::span<float> values = table.storage<float>();
  for (std::size_t k = 0; k < 8; ++k) values[k] = static_cast<float>(telling[k]);
  std::int64_t checked = 0;
  for (const std::uint32_t p : patterns()) {
    values[8] = std::bit_cast<float>(p);
    const FormatId expected = by_rounding(table);
    ASSERT_EQ(narrowest_format(table).format, expected) << std::hex << "pattern 0x" << p;
    ++checked;
  }
  EXPECT_GT(checked, 500000);
}

// The pass stops at the first block with a value the format does not hold,
// and a value past the first block decides as well as one in it.
TEST(NarrowFormat, aValueAnywhereInALargeTableDecides) {
  Table table = make_table(300, 128, FormatId::float32);
  std::span<float> values = table.storage<float>();
  for (std::size_t k = 0; k < values.size(); ++k) values[k] = static_cast<float>(telling[k % 8]);
  EXPECT_EQ(narrowest_format(table).format, FormatId::bfloat16);
  values[values.size() - 1] = std::bit_cast<float>(0x3f800000U | 0x2000U);  // 1 + 2^-10: float16's, not bfloat16's
  EXPECT_EQ(narrowest_format(table).format, FormatId::float16);
  values[20000] = std::bit_cast<float>(0x3f800001U);  // 1 + 2^-23: float32's alone
  EXPECT_EQ(narrowest_format(table).format, FormatId::float32);
}

}  // namespace
}  // namespace pecheck::validate
