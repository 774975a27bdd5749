// The typed table: storage in the format's own type, so every bit pattern it
// holds is a value of its format, and the operations around it.
#include "pecheck/table.hpp"

#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <bit>
#include <cmath>
#include <cstring>
#include <limits>
#include <stdexcept>
#include <vector>

#include "pecheck/memory_limit.hpp"
#include "pecheck/table_errors.hpp"
#include "pecheck/testing/table_values.hpp"

namespace pecheck {
namespace {

using testing::values_of;

constexpr FormatId kFormats[] = {FormatId::float64, FormatId::float32, FormatId::float16, FormatId::bfloat16};

double any_double() {
  return std::bit_cast<double>(*rc::gen::arbitrary<std::uint64_t>());
}

// set() stores what the independent number-format oracle (format.cpp) says
// the value rounds to, in every format, for any double's bit pattern.
RC_GTEST_PROP(TypedTable, setStoresTheValueRoundedToTheFormatAsTheOracleRoundsIt, ()) {
  const double x = any_double();
  for (const FormatId id : kFormats) {
    Table table = make_table(1, 1, id);
    table.set(0, 0, x);
    const double stored = table.at(0, 0);
    const double expected = round_to_format(x, format_of(id));
    if (std::isnan(x)) {
      RC_ASSERT(std::isnan(stored));
    } else {
      RC_ASSERT(std::bit_cast<std::uint64_t>(stored) == std::bit_cast<std::uint64_t>(expected));
      RC_ASSERT(is_representable(stored, format_of(id)));
    }
  }
}

TEST(TypedTable, storesEachFormatInItsOwnTypeAndWidth) {
  for (const FormatId id : kFormats) {
    const Table table = make_table(3, 5, id);
    EXPECT_EQ(table.bytes().size(), static_cast<std::size_t>(15 * format_of(id).storage_bits / 8));
    for (double v : values_of(table)) {
      EXPECT_EQ(v, 0.0);
      EXPECT_FALSE(std::signbit(v)) << "make_table fills with +0";
    }
  }
  Table f32 = make_table(2, 2, FormatId::float32);
  f32.storage<float>()[3] = 0.1f;
  EXPECT_EQ(f32.at(1, 1), static_cast<double>(0.1f));
  EXPECT_THROW(f32.storage<double>(), std::logic_error);
  EXPECT_THROW(f32.view().row<std::uint16_t>(0), std::logic_error);
  Table bf16 = make_table(1, 1, FormatId::bfloat16);
  bf16.storage<std::uint16_t>()[0] = 0x3f80;
  EXPECT_EQ(bf16.at(0, 0), 1.0);
}

TEST(TypedTable, keepsNanPayloadsAndSignedZerosBitForBit) {
  Table table = make_table(1, 2, FormatId::float32);
  table.storage<float>()[0] = std::bit_cast<float>(0xffc12345u);
  table.set(0, 1, -0.0);
  const Table copy = table;
  EXPECT_EQ(std::bit_cast<std::uint32_t>(copy.storage<float>()[0]), 0xffc12345u);
  EXPECT_TRUE(std::signbit(copy.at(0, 1)));
}

TEST(TypedTable, copiesAreDeep) {
  Table a = make_table(2, 2, FormatId::float16);
  a.set(0, 0, 1.0);
  Table b = a;
  b.set(0, 0, 2.0);
  EXPECT_EQ(a.at(0, 0), 1.0);
  EXPECT_EQ(b.at(0, 0), 2.0);
  Table c;
  c = b;
  EXPECT_EQ(c.at(0, 0), 2.0);
  EXPECT_NE(c.bytes().data(), b.bytes().data());
}

TEST(TypedTable, storageStartsOnACacheLine) {
  for (const FormatId id : kFormats) {
    const Table table = make_uninitialized_table(7, 3, id);
    EXPECT_EQ(reinterpret_cast<std::uintptr_t>(table.bytes().data()) % 64, 0u);
  }
}

TEST(TableView, rowBlocksAndStridesReadTheRightEntries) {
  Table table = make_table(4, 3, FormatId::float64);
  for (std::int64_t k = 0; k < 12; ++k) table.set_flat(k, static_cast<double>(k));
  const TableView block = table.view().row_block(1, 2);
  EXPECT_EQ(block.rows(), 2);
  EXPECT_EQ(block.at(0, 0), 3.0);
  EXPECT_EQ(block.at(1, 2), 8.0);
  EXPECT_EQ(block.row<double>(1)[1], 7.0);
  const Table copy = copy_table(block);
  EXPECT_EQ(values_of(copy), (std::vector<double>{3, 4, 5, 6, 7, 8}));
  // A strided view: every other column of a wider buffer.
  const TableView strided(FormatId::float64, 2, 3, 6, table.bytes().data());
  EXPECT_FALSE(strided.contiguous());
  EXPECT_EQ(values_of(copy_table(strided)), (std::vector<double>{0, 1, 2, 6, 7, 8}));
}

// decode_row reads a bfloat16 row in two passes (every entry as a normal
// value, then the others again): every one of the 65536 patterns, in rows
// that mix them with normal values and in rows of normal values alone, comes
// out with the bits the number-format oracle gives, through a strided view too.
TEST(DecodeRow, readsEveryBfloat16PatternAsTheFormatOracleDoes) {
  constexpr std::int64_t cols = 100, stride = 128;  // rows of 100 entries, 28 skipped between them
  const std::int64_t rows = (0x10000 + cols - 1) / cols;
  Table table = make_table(rows, stride, FormatId::bfloat16);
  const std::span<std::uint16_t> bits = table.storage<std::uint16_t>();
  for (std::int64_t r = 0; r < rows; ++r) {
    for (std::int64_t c = 0; c < stride; ++c) {
      // Row r holds the patterns r * cols onwards (the last row's tail: 1.0's pattern, 0x3f80).
      const std::int64_t k = r * cols + c;
      bits[static_cast<std::size_t>(r * stride + c)] = c < cols && k <= 0xffff ? static_cast<std::uint16_t>(k) : 0x3f80;
    }
  }
  const TableView view(FormatId::bfloat16, rows, cols, stride, table.bytes().data());
  const Format& format = format_of(FormatId::bfloat16);
  std::vector<double> out(static_cast<std::size_t>(cols));
  std::int64_t rows_of_normal_values_alone = 0;
  for (std::int64_t r = 0; r < rows; ++r) {
    decode_row(view, r, out);
    bool all_normal = true;
    for (std::int64_t c = 0; c < cols; ++c) {
      const std::uint16_t pattern = view.row<std::uint16_t>(r)[static_cast<std::size_t>(c)];
      const std::uint16_t exponent = pattern & 0x7f80U;
      all_normal = all_normal && exponent != 0 && exponent != 0x7f80U;
      ASSERT_EQ(std::bit_cast<std::uint64_t>(out[static_cast<std::size_t>(c)]),
                std::bit_cast<std::uint64_t>(from_bits(pattern, format)))
          << "pattern " << pattern;
      ASSERT_EQ(std::bit_cast<std::uint64_t>(view.at(r, c)), std::bit_cast<std::uint64_t>(from_bits(pattern, format)))
          << "pattern " << pattern;
    }
    rows_of_normal_values_alone += all_normal;
  }
  // Both passes ran: most rows hold normal values alone, the rest mix them with zeros, subnormals and NaNs.
  EXPECT_GT(rows_of_normal_values_alone, rows / 2);
  EXPECT_LT(rows_of_normal_values_alone, rows);
}

TEST(ConvertTable, roundsToTheNewFormatAndFindsValuesOutsideIt) {
  Table wide = make_table(2, 2, FormatId::float32);
  wide.set(0, 0, 1.0);
  wide.set(0, 1, -0.5);
  wide.set(1, 0, std::nan(""));
  wide.set(1, 1, 1.0 + 0x1p-7);  // a bfloat16 value
  EXPECT_FALSE(first_entry_outside(wide, FormatId::bfloat16).has_value());
  wide.set(1, 1, 1.0 + 0x1p-9);  // a float16 value, not a bfloat16 one
  const auto outside = first_entry_outside(wide, FormatId::bfloat16);
  ASSERT_TRUE(outside.has_value());
  EXPECT_EQ(outside->row, 1);
  EXPECT_EQ(outside->col, 1);
  EXPECT_FALSE(first_entry_outside(wide, FormatId::float16).has_value());
  EXPECT_FALSE(first_entry_outside(wide, FormatId::float64).has_value());
  const Table narrow = convert_table(wide, FormatId::bfloat16);
  EXPECT_EQ(narrow.format, FormatId::bfloat16);
  EXPECT_EQ(narrow.at(1, 1), 1.0);  // 1 + 2^-9 rounds to 1 in bfloat16
  EXPECT_TRUE(std::isnan(narrow.at(1, 0)));
  // bfloat16 and float16 hold different values: neither is wider.
  Table bf = make_table(1, 1, FormatId::bfloat16);
  bf.set(0, 0, 0x1p100);
  EXPECT_TRUE(first_entry_outside(bf, FormatId::float16).has_value());
}

TEST(MakeTable, refusesImpossibleShapesWithTheShapeAndSize) {
  EXPECT_THROW(make_table(-1, 3, FormatId::float32), TableShapeError);
  EXPECT_THROW(make_table(std::int64_t{1} << 40, std::int64_t{1} << 30, FormatId::float32), TableShapeError);
  // More than this machine can hold (a 2^40-byte table), refused before allocating.
  try {
    make_table(std::int64_t{1} << 20, std::int64_t{1} << 18, FormatId::float32);
    FAIL() << "a 1 TiB table was allocated";
  } catch (const MemoryLimitError& error) {
    EXPECT_EQ(error.needed(), std::uint64_t{1} << 40);
    EXPECT_NE(std::string(error.what()).find("1099511627776 bytes"), std::string::npos) << error.what();
  }
}

}  // namespace
}  // namespace pecheck
