// The relative presets' tables, whose rows run down from L-1 to 0 or to
// -(L-1): every entry, in every format, is the format's nearest value to an
// independent ~530-bit MPFR evaluation of sin and cos at the (possibly
// negative) position, including the row of position 0 and the most negative
// row, at short lengths and at the edge of the range, |p| = 2^24 - 1.
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "independent_oracle.hpp"
#include "pecheck/reference/reference.hpp"
#include "pecheck/testing/table_values.hpp"

namespace pecheck::reference {
namespace {

using testing::flat_at;

constexpr unsigned independent_digits = 160;  // ~532 bits

struct Slice {
  std::int64_t length_rows;  // the whole table's rows (for_rows)
  std::int64_t offset;       // the first row written
  std::int64_t rows;
};

// Checks rows [offset, offset + rows) of `preset`'s table of `length_rows`
// rows against the independent evaluation; returns the positions covered.
std::vector<std::int64_t> check_slice(const Convention& preset, std::int64_t d, const Slice& slice) {
  const Convention convention = for_rows(preset, slice.length_rows);
  std::vector<std::int64_t> positions;
  for (const Format* format : testing::all_formats) {
    const ReferenceTable table = reference_table(convention, {slice.rows, d, slice.offset}, format->id, 1);
    for (std::int64_t r = 0; r < slice.rows; ++r) {
      const std::int64_t row = r + slice.offset;
      if (format == testing::all_formats[0]) positions.push_back(position_of_row(convention, row));
      for (std::int64_t c = 0; c < d; ++c) {
        const testing::HighReal x = testing::independent_value(convention, d, row, c);
        const double rounded = flat_at(table.rounded, r * d + c);
        const std::string failure = testing::rounding_failure(x, rounded, *format);
        EXPECT_TRUE(failure.empty()) << preset.name << " d=" << d << " row " << row << " (position "
                                     << position_of_row(convention, row) << ") col " << c << ' ' << format->name << ": "
                                     << failure;
        // The single-entry path (EntryEvaluator) agrees with the table's.
        if (r == 0 || r == slice.rows - 1) {
          EXPECT_EQ(correctly_rounded(convention, d, row, c, *format), rounded) << preset.name << " row " << row;
        }
      }
    }
  }
  return positions;
}

TEST(ReferenceNegativePositions, relativeTablesAreCorrectlyRoundedOnBothSidesOfZero) {
  testing::use_decimal_digits(independent_digits);
  for (const Convention& preset : relative_presets()) {
    const bool centred = preset.span == PositionSpan::centred_on_zero;
    const std::int64_t rows = centred ? 9 : 5;  // L = 5: L-1 down to -(L-1), or to 0
    for (const std::int64_t d : {8, 18}) {
      const std::vector<std::int64_t> positions = check_slice(preset, d, {rows, 0, rows});
      // The slice covers position 0 and the most negative row: the test checks what it says.
      EXPECT_EQ(positions.front(), 4) << preset.name;
      EXPECT_EQ(positions.back(), centred ? -4 : 0) << preset.name;
    }
  }
}

TEST(ReferenceNegativePositions, theMostNegativeRowsBelow2To24AreCorrectlyRounded) {
  testing::use_decimal_digits(independent_digits);
  const Convention espnet = *find_preset("espnet-rel");
  // 2^25 - 1 rows: L = 2^24, positions 2^24 - 1 down to -(2^24 - 1); the
  // last four rows and the four around position 0 are written.
  const std::int64_t length_rows = 2 * max_exact_position - 1;
  const std::vector<std::int64_t> last = check_slice(espnet, 32, {length_rows, length_rows - 4, 4});
  EXPECT_EQ(last.back(), -(max_exact_position - 1));
  const std::vector<std::int64_t> middle = check_slice(espnet, 32, {length_rows, max_exact_position - 3, 4});
  EXPECT_EQ(middle.front(), 2);
  EXPECT_EQ(middle.back(), -1);
}

TEST(ReferenceNegativePositions, aNegativePositionIsItsMagnitudeWithSinNegated) {
  // sin(-x) = -sin(x), cos(-x) = cos(x), bit for bit in every format and in
  // the exact double-double.
  const Convention nemo = for_rows(*find_preset("nemo-rel"), 2 * 1000 - 1);
  const std::int64_t d = 16;
  const ReferenceTable table = reference_table(nemo, {1999, d, 0}, FormatId::float32, 2);
  const std::vector<ColumnSpec> columns = column_layout(nemo, d);
  for (std::int64_t p = 1; p < 1000; ++p) {
    const std::int64_t up = row_of_position(nemo, p);
    const std::int64_t down = row_of_position(nemo, -p);
    for (std::int64_t c = 0; c < d; ++c) {
      const double sign = columns[static_cast<std::size_t>(c)].kind == ColumnKind::sin ? -1.0 : 1.0;
      ASSERT_EQ(flat_at(table.rounded, down * d + c), sign * flat_at(table.rounded, up * d + c)) << "p " << p;
      ASSERT_EQ(table.exact[static_cast<std::size_t>(down * d + c)].hi,
                sign * table.exact[static_cast<std::size_t>(up * d + c)].hi);
      ASSERT_EQ(table.exact[static_cast<std::size_t>(down * d + c)].lo,
                sign * table.exact[static_cast<std::size_t>(up * d + c)].lo);
    }
  }
}

}  // namespace
}  // namespace pecheck::reference
