// The fast implementation's structure: exact values at position 0, the
// Pythagorean identity, layouts, zero rows, odd widths, row offsets and block
// splits and thread counts (bit for bit), the typed outputs, and the errors
// for impossible requests. Accuracy against a 113-bit evaluation is in
// fast_encoding_accuracy_test.cpp.
#include "pecheck/fast_encoding.hpp"

#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "encoding_plan.hpp"
#include "narrow_fill.hpp"
#include "pecheck/format.hpp"
#include "pecheck/testing/table_values.hpp"

using namespace pecheck::testing;  // fill_table, flat_at, flat_set, table_of, values_of

namespace pecheck {
namespace {

constexpr FormatId all_formats[] = {FormatId::float64, FormatId::float32, FormatId::float16, FormatId::bfloat16};

const char* name_of(FormatId format) {
  switch (format) {
    case FormatId::float64: return "float64";
    case FormatId::float32: return "float32";
    case FormatId::float16: return "float16";
    case FormatId::bfloat16: return "bfloat16";
  }
  return "?";
}

bool accepts(const Convention& convention, std::int64_t d) {
  return d >= convention.min_dim && !(d % 2 == 1 && convention.odd_dim == OddDimPolicy::reject);
}

Table table(const Convention& convention, std::int64_t rows, std::int64_t dim, std::int64_t offset, FormatId format) {
  return fast_table(convention, TableRequest{rows, dim, offset}, format);
}

bool same_bits(double a, double b) { return std::bit_cast<std::uint64_t>(a) == std::bit_cast<std::uint64_t>(b); }

// The row holding position 0, or -1 if no row >= 0 does.
std::int64_t row_of_position_zero(const Convention& convention) { return -convention.position_offset; }

TEST(FastEncoding, positionZeroIsExactlyZeroInSinColumnsAndOneInCosColumns) {
  for (const Convention& preset : presets()) {
    const std::int64_t row = row_of_position_zero(preset);
    if (row < 0 || is_zero_row(preset, row)) continue;
    for (const std::int64_t d : {4, 9, 64}) {
      if (!accepts(preset, d)) continue;
      const std::vector<ColumnSpec> layout = column_layout(preset, d);
      for (const FormatId format : all_formats) {
        const Table t = table(preset, 1, d, row, format);
        for (std::int64_t c = 0; c < d; ++c) {
          const double value = t.at(0, c);
          const double expected = layout[static_cast<std::size_t>(c)].kind == ColumnKind::cos ? 1.0 : 0.0;
          EXPECT_TRUE(same_bits(value, expected))  // +0, never -0
              << preset.name << " d=" << d << " " << name_of(format) << " column " << c << ": " << value;
        }
      }
    }
  }
}

// |s^2 + c^2 - 1| for a rounded pair: each of s, c is within 1 ulp of the
// exact value (the accuracy test), an ulp is at most 2^(1-P) of the value
// (P the precision), so s^2 + c^2 moves by at most 2 * 2^(1-P) * (s^2 + c^2)
// plus the square of that; double adds three roundings of 2^-53. For float64
// the kernel's own bound is 2 ulp (2^-52 relative): 2^-50 + 3 * 2^-53 < 2^-49.
double pythagorean_tolerance(FormatId format) {
  switch (format) {
    case FormatId::float64: return 0x1p-49;
    case FormatId::float32: return 2 * 0x1p-23 + 0x1p-45 + 3 * 0x1p-53;
    case FormatId::float16: return 2 * 0x1p-10 + 0x1p-19 + 3 * 0x1p-53;
    case FormatId::bfloat16: return 2 * 0x1p-7 + 0x1p-13 + 3 * 0x1p-53;
  }
  return 0.0;
}

TEST(FastEncoding, sinSquaredPlusCosSquaredIsOneForEveryFrequencyPair) {
  constexpr std::int64_t d = 64;
  constexpr std::int64_t rows = 128;
  for (const Convention& preset : presets()) {
    const std::vector<ColumnSpec> layout = column_layout(preset, d);
    std::vector<std::int64_t> sin_column(d / 2, -1);
    std::vector<std::int64_t> cos_column(d / 2, -1);
    for (std::int64_t c = 0; c < d; ++c) {
      const ColumnSpec& spec = layout[static_cast<std::size_t>(c)];
      if (spec.kind == ColumnKind::sin) sin_column[static_cast<std::size_t>(spec.frequency_index)] = c;
      if (spec.kind == ColumnKind::cos) cos_column[static_cast<std::size_t>(spec.frequency_index)] = c;
    }
    for (const FormatId format : all_formats) {
      double worst = 0.0;
      for (const std::int64_t offset : {std::int64_t{0}, max_exact_position - rows - preset.position_offset}) {
        const Table t = table(preset, rows, d, offset, format);
        for (std::int64_t r = 0; r < rows; ++r) {
          if (is_zero_row(preset, r + offset)) continue;
          for (std::size_t i = 0; i < sin_column.size(); ++i) {
            const double s = t.at(r, sin_column[i]);
            const double c = t.at(r, cos_column[i]);
            worst = std::max(worst, std::fabs(s * s + c * c - 1.0));
          }
        }
      }
      std::printf("%-14s %-8s max |sin^2 + cos^2 - 1| = %.3g (tolerance %.3g)\n", preset.name.c_str(),
                  name_of(format), worst, pythagorean_tolerance(format));
      EXPECT_LE(worst, pythagorean_tolerance(format)) << preset.name << " " << name_of(format);
    }
  }
}

// Independent of column_layout(): where the first frequency (w_0 = 1 in every
// preset) lands, read from the Layout field alone, checked at position 2
// (position 1 is fairseq's padding row).
TEST(FastEncoding, firstFrequencyLandsWhereTheLayoutFieldSays) {
  for (const Convention& preset : presets()) {
    for (const std::int64_t d : {8, 9}) {
      if (!accepts(preset, d)) continue;
      const std::int64_t row = 2 - preset.position_offset;
      if (row < 0 || is_zero_row(preset, row)) continue;
      const Table t = table(preset, 1, d, row, FormatId::float64);
      const bool extra_sin = d % 2 == 1 && preset.odd_dim == OddDimPolicy::extra_sin;
      const std::int64_t sin_count = d / 2 + (extra_sin ? 1 : 0);
      std::int64_t sin_at = 0;
      std::int64_t cos_at = 1;
      if (preset.layout == Layout::sin_cos_halves) cos_at = sin_count;
      if (preset.layout == Layout::cos_sin_halves) {
        cos_at = 0;
        sin_at = d / 2;
      }
      EXPECT_NEAR(t.at(0, sin_at), std::sin(2.0), 1e-15) << preset.name << " d=" << d;
      EXPECT_NEAR(t.at(0, cos_at), std::cos(2.0), 1e-15) << preset.name << " d=" << d;
    }
  }
}

TEST(FastEncoding, oddWidthFollowsTheConventionsPolicy) {
  constexpr std::int64_t d = 9;
  for (const Convention& preset : presets()) {
    if (preset.odd_dim == OddDimPolicy::reject) {
      EXPECT_THROW(check_request(preset, TableRequest{1, d, 0}), ConventionError) << preset.name;
      continue;
    }
    const Table t = table(preset, 40, d, 0, FormatId::float64);
    // Count the columns that are identically zero over 40 rows: only the
    // appended column of the zero-column policy (and zero rows) may be.
    std::int64_t zero_columns = 0;
    for (std::int64_t c = 0; c < d; ++c) {
      bool all_zero = true;
      for (std::int64_t r = 0; r < t.rows; ++r) all_zero = all_zero && t.at(r, c) == 0.0;
      zero_columns += all_zero ? 1 : 0;
    }
    if (preset.odd_dim == OddDimPolicy::zero_column) {
      EXPECT_EQ(zero_columns, 1) << preset.name;
      for (std::int64_t r = 0; r < t.rows; ++r) EXPECT_TRUE(same_bits(t.at(r, d - 1), 0.0)) << preset.name;
    } else {
      EXPECT_EQ(zero_columns, 0) << preset.name;
      // extra_sin: at position 0 the sin columns are 0; there are (d+1)/2 of them.
      std::int64_t zeros_at_position_zero = 0;
      for (std::int64_t c = 0; c < d; ++c) zeros_at_position_zero += t.at(0, c) == 0.0 ? 1 : 0;
      EXPECT_EQ(zeros_at_position_zero, (d + 1) / 2) << preset.name;
    }
  }
}

TEST(FastEncoding, zeroRowsAreAllZeroWhateverTheOffset) {
  Convention custom = presets().front();
  custom.name = "custom-zero-rows";
  custom.zero_rows = {0, 5};
  std::vector<Convention> conventions = {custom};
  for (const Convention& preset : presets()) {
    if (!preset.zero_rows.empty()) conventions.push_back(preset);
  }
  ASSERT_GE(conventions.size(), 2u) << "fairseq's padding row is expected among the presets";
  for (const Convention& convention : conventions) {
    for (const std::int64_t offset : {0, 1, 3}) {
      for (const FormatId format : all_formats) {
        const Table t = table(convention, 8, 6, offset, format);
        for (std::int64_t r = 0; r < t.rows; ++r) {
          bool all_zero = true;
          for (std::int64_t c = 0; c < t.cols; ++c) all_zero = all_zero && same_bits(t.at(r, c), 0.0);
          EXPECT_EQ(all_zero, is_zero_row(convention, r + offset))
              << convention.name << " offset " << offset << " row " << r << " " << name_of(format);
        }
      }
    }
  }
}

TEST(FastEncoding, tableWithOffsetKEqualsRowsKOnwardsOfALargerTableBitForBit) {
  constexpr std::int64_t k = 37;
  constexpr std::int64_t rows = 50;
  for (const Convention& preset : presets()) {
    for (const std::int64_t d : {6, 33, 128}) {
      if (!accepts(preset, d)) continue;
      for (const FormatId format : all_formats) {
        const Table large = table(preset, k + rows, d, 0, format);
        const Table small = table(preset, rows, d, k, format);
        for (std::int64_t r = 0; r < rows; ++r) {
          for (std::int64_t c = 0; c < d; ++c) {
            ASSERT_TRUE(same_bits(small.at(r, c), large.at(k + r, c)))
                << preset.name << " d=" << d << " " << name_of(format) << " row " << r << " column " << c;
          }
        }
      }
    }
  }
}

TEST(FastEncoding, rowsNearTwoToThe24AreTheSameAloneOrInABlock) {
  constexpr std::int64_t d = 100;
  constexpr std::int64_t rows = 16;
  for (const Convention& preset : presets()) {
    const std::int64_t offset = max_exact_position - rows - preset.position_offset;
    const Table block = table(preset, rows, d, offset, FormatId::float64);
    for (std::int64_t r = 0; r < rows; ++r) {
      const Table single = table(preset, 1, d, offset + r, FormatId::float64);
      for (std::int64_t c = 0; c < d; ++c) {
        ASSERT_TRUE(same_bits(single.at(0, c), block.at(r, c))) << preset.name << " row " << r << " column " << c;
      }
    }
  }
}

// The threading contract of EncodingPlan: any split of a table's rows into
// blocks gives the same bits as one call.
TEST(EncodingPlan, anySplitOfTheRowsIntoBlocksGivesTheSameBits) {
  constexpr std::int64_t d = 77;
  constexpr std::int64_t rows = 96;
  constexpr std::int64_t offset = 1000;
  for (const Convention& preset : presets()) {
    if (!accepts(preset, d)) continue;
    const EncodingPlan plan(preset, d);
    std::vector<float> whole(rows * d);
    plan.fill_rows(0, rows, offset, std::span<float>(whole));
    for (const std::int64_t block : {1, 7, 32}) {
      std::vector<float> split(rows * d);
      for (std::int64_t first = 0; first < rows; first += block) {
        const std::int64_t count = std::min(block, rows - first);
        plan.fill_rows(first, count, offset, std::span<float>(split).subspan(first * d, count * d));
      }
      for (std::size_t i = 0; i < whole.size(); ++i) {
        ASSERT_EQ(std::bit_cast<std::uint32_t>(whole[i]), std::bit_cast<std::uint32_t>(split[i]))
            << preset.name << " block " << block << " entry " << i;
      }
    }
  }
}

// float64 is the kernel's result; float32, float16 and bfloat16 are each the
// same accurate double (the plan's narrow source) rounded once, by the
// generic rounding of format.hpp; fast_table gives the same values.
TEST(FastEncoding, typedOutputsAreOneAccurateDoubleRoundedOnce) {
  constexpr std::int64_t rows = 300;  // crosses two anchors (K = 128)
  for (const Convention& preset : presets()) {
    for (const std::int64_t d : {10, 31}) {
      if (!accepts(preset, d)) continue;
      const TableRequest request{rows, d, 12345};
      std::vector<double> source(rows * d);
      EncodingPlan(preset, d).fill_rows_narrow_source(0, rows, request.row_offset, source);
      std::vector<double> f64(rows * d);
      std::vector<float> f32(rows * d);
      std::vector<std::uint16_t> f16(rows * d);
      std::vector<std::uint16_t> bf16(rows * d);
      fast_encoding(preset, request, std::span<double>(f64));
      fast_encoding(preset, request, std::span<float>(f32));
      fast_encoding_float16(preset, request, f16);
      fast_encoding_bfloat16(preset, request, bf16);
      const Table t64 = fast_table(preset, request, FormatId::float64);
      const Table t32 = fast_table(preset, request, FormatId::float32);
      const Table t16 = fast_table(preset, request, FormatId::float16);
      const Table tb16 = fast_table(preset, request, FormatId::bfloat16);
      for (std::size_t i = 0; i < f64.size(); ++i) {
        ASSERT_TRUE(same_bits(flat_at(t64, static_cast<std::int64_t>(i)), f64[i]));
        ASSERT_EQ(std::bit_cast<std::uint32_t>(f32[i]), std::bit_cast<std::uint32_t>(static_cast<float>(source[i])));
        ASSERT_EQ(f16[i], round_to_float16_bits(source[i]));
        ASSERT_EQ(bf16[i], round_to_bfloat16_bits(source[i]));
        ASSERT_TRUE(same_bits(flat_at(t32, static_cast<std::int64_t>(i)), static_cast<double>(f32[i])));
        ASSERT_TRUE(same_bits(flat_at(t16, static_cast<std::int64_t>(i)), float16_bits_to_double(f16[i])));
        ASSERT_TRUE(same_bits(flat_at(tb16, static_cast<std::int64_t>(i)), bfloat16_bits_to_double(bf16[i])));
      }
    }
  }
}

// The rows split into 1, 2 and 3 blocks on as many threads give the same
// bits, in every format; 2048 x 1024 float32 is large enough (8 MiB) for the
// streaming stores, the smaller tables use plain ones.
TEST(FastEncoding, threadCountsOneTwoAndThreeGiveTheSameBits) {
  for (const Convention& preset : {presets()[0], presets()[3]}) {
    for (const TableRequest request : {TableRequest{2048, 1024, 0}, TableRequest{301, 77, 9000}}) {
      if (!accepts(preset, request.dim)) continue;
      const auto n = static_cast<std::size_t>(request.rows * request.dim);
      std::vector<float> f32[3];
      std::vector<std::uint16_t> f16[3];
      std::vector<std::uint16_t> bf16[3];
      std::vector<double> f64[3];
      for (int t = 0; t < 3; ++t) {
        f32[t].resize(n);
        f16[t].resize(n);
        bf16[t].resize(n);
        f64[t].resize(n);
        fast_encoding(preset, request, std::span<float>(f32[t]), t + 1);
        fast_encoding_float16(preset, request, f16[t], t + 1);
        fast_encoding_bfloat16(preset, request, bf16[t], t + 1);
        fast_encoding(preset, request, std::span<double>(f64[t]), t + 1);
      }
      for (int t = 1; t < 3; ++t) {
        EXPECT_EQ(std::memcmp(f32[0].data(), f32[t].data(), n * sizeof(float)), 0) << preset.name << " threads " << t + 1;
        EXPECT_EQ(f16[0], f16[t]) << preset.name << " threads " << t + 1;
        EXPECT_EQ(bf16[0], bf16[t]) << preset.name << " threads " << t + 1;
        EXPECT_EQ(std::memcmp(f64[0].data(), f64[t].data(), n * sizeof(double)), 0)
            << preset.name << " threads " << t + 1;
      }
    }
  }
  std::vector<float> out(8);
  EXPECT_THROW(fast_encoding(presets()[0], {1, 8, 0}, std::span<float>(out), -1), std::invalid_argument);
}

// narrow_layout() accounts for every column exactly once, with the column
// column_layout() gives it.
TEST(EncodingPlan, narrowLayoutPlacesEveryColumnOnce) {
  for (const Convention& preset : presets()) {
    for (const std::int64_t d : {1, 2, 7, 8, 9, 64, 1023}) {
      if (!accepts(preset, d)) continue;
      const std::vector<ColumnSpec> columns = column_layout(preset, d);
      const NarrowLayout layout = narrow_layout(columns);
      std::vector<int> seen(static_cast<std::size_t>(d), 0);
      const auto expect_column = [&](std::int64_t c, ColumnKind kind, std::int64_t frequency) {
        ASSERT_GE(c, 0);
        ASSERT_LT(c, d);
        ++seen[static_cast<std::size_t>(c)];
        EXPECT_EQ(columns[static_cast<std::size_t>(c)].kind, kind) << preset.name << " d=" << d << " column " << c;
        if (kind != ColumnKind::zero) {
          EXPECT_EQ(columns[static_cast<std::size_t>(c)].frequency_index, frequency) << preset.name << " column " << c;
        }
      };
      for (const PairedRun& run : layout.pairs) {
        for (std::int64_t k = 0; k < run.count; ++k) {
          expect_column(run.sin_column + k * run.column_stride, ColumnKind::sin, run.first_frequency + k);
          expect_column(run.cos_column + k * run.column_stride, ColumnKind::cos, run.first_frequency + k);
        }
      }
      for (const LoneEntry& entry : layout.lone) expect_column(entry.column, entry.kind, entry.frequency);
      for (const std::int64_t c : layout.zero_columns) expect_column(c, ColumnKind::zero, 0);
      for (std::int64_t c = 0; c < d; ++c) EXPECT_EQ(seen[static_cast<std::size_t>(c)], 1) << preset.name << " " << c;
      EXPECT_LE(layout.pairs.size(), 2u) << preset.name << " d=" << d;  // the hot loop sees long runs
    }
  }
}

void expect_error_naming(const Convention& convention, const TableRequest& request, const std::string& flag) {
  try {
    check_request(convention, request);
    ADD_FAILURE() << "no error for rows " << request.rows << " dim " << request.dim << " offset " << request.row_offset;
  } catch (const ConventionError& error) {
    EXPECT_NE(std::string(error.what()).find(flag), std::string::npos) << error.what();
  }
}

TEST(FastEncoding, impossibleRequestsAreRefusedNamingTheFlag) {
  const Convention& vaswani = presets().front();
  expect_error_naming(vaswani, {-1, 8, 0}, "--rows");
  expect_error_naming(vaswani, {4, 8, -1}, "--offset");
  expect_error_naming(vaswani, {4, 0, 0}, "--dim");
  expect_error_naming(vaswani, {4, max_dim + 1, 0}, "--dim");
  expect_error_naming(*find_preset("tf-tutorial"), {4, 7, 0}, "--dim");
  expect_error_naming(*find_preset("fairseq"), {4, 3, 0}, "--dim");
  // The last position must stay below 2^24; the message names both flags.
  expect_error_naming(vaswani, {10, 8, max_exact_position - 5}, "--offset");
  expect_error_naming(vaswani, {max_exact_position + 1, 8, 0}, "--rows");
  expect_error_naming(vaswani, {4, 8, std::int64_t{1} << 62}, "--offset");
  // 2^24 rows x 256 columns is 2^32 entries, past the 2^31 a table may hold.
  expect_error_naming(vaswani, {max_exact_position, 256, 0}, "--dim");
  // These are fine.
  EXPECT_NO_THROW(check_request(vaswani, {max_exact_position, 128, 0}));
  EXPECT_NO_THROW(check_request(vaswani, {1, 8, max_exact_position - 1}));
  EXPECT_NO_THROW(check_request(vaswani, {0, 8, 0}));
  // Positions lie in (-2^24, 2^24): a position offset that would move row 0
  // to -2^24 is refused, as in the reference.
  Convention shifted = vaswani;
  shifted.position_offset = -max_exact_position;
  expect_error_naming(shifted, {10, 8, 0}, "--offset");

  std::vector<float> wrong_size(7);
  EXPECT_THROW(fast_encoding(vaswani, {2, 4, 0}, std::span<float>(wrong_size)), std::invalid_argument);
  EXPECT_EQ(fast_table(vaswani, {0, 8, 0}, FormatId::float32).size(), 0);
}

}  // namespace
}  // namespace pecheck
