// Relative conventions: the row-to-position map is data (first position and
// step), position_of_row and row_of_position are inverses, for_rows ties a
// relative preset's first position to the table's length as each original
// does, and the fast path's tables follow sin(-x) = -sin(x), cos(-x) = cos(x)
// bit for bit in every format.
#include <gtest/gtest.h>

#include <bit>
#include <cstdint>
#include <string>

#include "pecheck/convention.hpp"
#include "pecheck/fast_encoding.hpp"
#include "pecheck/format.hpp"
#include "pecheck/testing/presets.hpp"

namespace pecheck {
namespace {

// The relative presets by name (ASSERT-free: find_preset's optional, unwrapped).
using testing::preset;

TEST(RelativeConvention, rowsAndPositionsMapBothWays) {
  for (const Convention& relative : relative_presets()) {
    const Convention convention = for_rows(relative, 2 * 37 - 1);
    for (std::int64_t r = 0; r < 2 * 37 - 1; ++r) {
      EXPECT_EQ(row_of_position(convention, position_of_row(convention, r)), r) << relative.name;
      EXPECT_EQ(position_of_row(convention, r + 1), position_of_row(convention, r) - 1) << relative.name;
    }
  }
  Convention shifted = preset("vaswani");
  shifted.position_offset = 5;
  EXPECT_EQ(position_of_row(shifted, 3), 8);
  EXPECT_EQ(row_of_position(shifted, 8), 3);
}

TEST(RelativeConvention, transformerXlHoldsLMinusOneDownToZero) {
  const Convention xl = for_rows(preset("transformer-xl"), 10);
  EXPECT_EQ(position_of_row(xl, 0), 9);
  EXPECT_EQ(position_of_row(xl, 9), 0);
  EXPECT_EQ(xl.span, PositionSpan::fixed);
  EXPECT_EQ(xl.layout, Layout::sin_cos_halves);
}

TEST(RelativeConvention, theConformerFamiliesHoldLMinusOneDownToMinusLPlusOne) {
  for (const char* name : {"espnet-rel", "nemo-rel", "speechbrain-rel"}) {
    const Convention convention = for_rows(preset(name), 2 * 10 - 1);  // L = 10
    EXPECT_EQ(position_of_row(convention, 0), 9) << name;
    EXPECT_EQ(position_of_row(convention, 9), 0) << name;  // the middle row
    EXPECT_EQ(position_of_row(convention, 18), -9) << name;
    EXPECT_EQ(convention.layout, Layout::interleaved) << name;
  }
}

TEST(RelativeConvention, aRowCountTheOriginalCannotMakeIsRefusedNamingRows) {
  try {
    for_rows(preset("espnet-rel"), 10);
    FAIL() << "an even row count was accepted";
  } catch (const ConventionError& error) {
    EXPECT_NE(std::string(error.what()).find("--rows 10"), std::string::npos) << error.what();
    EXPECT_NE(std::string(error.what()).find("odd"), std::string::npos) << error.what();
  }
  EXPECT_THROW(for_rows(preset("transformer-xl"), 0), ConventionError);
  // An absolute convention is returned as it is.
  const Convention vaswani = preset("vaswani");
  EXPECT_EQ(for_rows(vaswani, 10).position_offset, 0);
  EXPECT_EQ(for_rows(vaswani, 10).position_step, 1);
}

TEST(RelativeConvention, everyPresetNamesItsSourceAndRelativeOnesSayHowTheirRowsRun) {
  for (const Convention& convention : all_presets()) EXPECT_FALSE(convention.source.empty()) << convention.name;
  EXPECT_NE(describe(preset("espnet-rel")).find("L-1 down to -(L-1)"), std::string::npos);
  EXPECT_NE(describe(preset("transformer-xl")).find("L-1 down to 0"), std::string::npos);
  EXPECT_NE(describe(for_rows(preset("transformer-xl"), 4)).find("row r holds position 3 - r"), std::string::npos);
  // Odd widths are a shape error in the originals.
  EXPECT_THROW(check_dim(preset("nemo-rel"), 9), ConventionError);
}

// A centred table's row L-1+k holds -k, row L-1-k holds k: sin columns
// negated, cos columns equal, bit for bit; the middle row is exactly 0 and 1.
TEST(RelativeConvention, fastTablesAreSymmetricAboutPositionZeroInEveryFormat) {
  const std::int64_t length = 3000;
  const Convention espnet = for_rows(preset("espnet-rel"), 2 * length - 1);
  const std::int64_t d = 64;
  const std::vector<ColumnSpec> columns = column_layout(espnet, d);
  for (const FormatId format : {FormatId::float64, FormatId::float32, FormatId::float16, FormatId::bfloat16}) {
    const Table table = fast_table(espnet, {2 * length - 1, d, 0}, format);
    const std::int64_t middle = length - 1;
    for (std::int64_t c = 0; c < d; ++c) {
      const bool sin = columns[static_cast<std::size_t>(c)].kind == ColumnKind::sin;
      EXPECT_EQ(std::bit_cast<std::uint64_t>(table.at(middle, c)), std::bit_cast<std::uint64_t>(sin ? 0.0 : 1.0));
      for (std::int64_t k = 1; k < length; ++k) {
        const double up = table.at(middle - k, c);
        const double down = table.at(middle + k, c);
        ASSERT_EQ(std::bit_cast<std::uint64_t>(down), std::bit_cast<std::uint64_t>(sin ? -up : up))
            << "position " << k << " column " << c << " format " << static_cast<int>(format);
      }
    }
  }
}

TEST(RelativeConvention, aSliceOfARelativeTableIsTheSameRowsOfTheWholeOne) {
  const Convention xl = for_rows(preset("transformer-xl"), 500);
  const Table whole = fast_table(xl, {500, 32, 0}, FormatId::float32);
  const Table slice = fast_table(xl, {100, 32, 400}, FormatId::float32);
  for (std::int64_t r = 0; r < 100; ++r) {
    for (std::int64_t c = 0; c < 32; ++c) ASSERT_EQ(slice.at(r, c), whole.at(r + 400, c));
  }
}

}  // namespace
}  // namespace pecheck
