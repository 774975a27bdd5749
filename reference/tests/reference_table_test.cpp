// Whole tables: the same values as entry by entry, rows shifted by the
// offset, zero rows and odd widths as each preset says, the same bits for
// any thread count, and bad requests refused with a message naming the flag.
#include <gtest/gtest.h>

#include <bit>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <iostream>
#include <string>
#include <thread>

#include "independent_oracle.hpp"
#include "pecheck/reference/reference.hpp"
#include "pecheck/testing/table_values.hpp"

using pecheck::testing::flat_at;

namespace pecheck::reference {
namespace {

bool same_bits(double a, double b) { return std::bit_cast<std::uint64_t>(a) == std::bit_cast<std::uint64_t>(b); }

bool same_tables(const ReferenceTable& a, const ReferenceTable& b) {
  if (a.rounded.rows != b.rounded.rows || a.rounded.cols != b.rounded.cols || a.escalations != b.escalations) {
    return false;
  }
  for (std::size_t k = 0; k < a.exact.size(); ++k) {
    if (!same_bits(flat_at(a.rounded, static_cast<std::int64_t>(k)), flat_at(b.rounded, static_cast<std::int64_t>(k))) || !same_bits(a.exact[k].hi, b.exact[k].hi) ||
        !same_bits(a.exact[k].lo, b.exact[k].lo)) {
      return false;
    }
  }
  return true;
}

// Widths that exercise each preset: its smallest, an odd one where allowed, and a wider one.
std::vector<std::int64_t> widths_for(const Convention& convention) {
  std::vector<std::int64_t> widths{std::max<std::int64_t>(convention.min_dim, 2), 16};
  widths.push_back(convention.odd_dim == OddDimPolicy::reject ? 10 : 9);
  return widths;
}

TEST(ReferenceTable, everyEntryEqualsTheSingleEntryFunctions) {
  int format_index = 0;
  for (const Convention& convention : presets()) {
    for (std::int64_t d : widths_for(convention)) {
      for (std::int64_t offset : {std::int64_t{0}, std::int64_t{3}, max_exact_position - 6}) {
        const TableRequest request{6, d, offset};
        const Format& format = *testing::all_formats[format_index++ % 4];
        const ReferenceTable table = reference_table(convention, request, format.id, 2);
        ASSERT_EQ(table.rounded.rows, 6);
        ASSERT_EQ(table.rounded.cols, d);
        ASSERT_EQ(table.rounded.format, format.id);
        ASSERT_EQ(table.exact.size(), static_cast<std::size_t>(6 * d));
        for (std::int64_t r = 0; r < 6; ++r) {
          for (std::int64_t c = 0; c < d; ++c) {
            const std::int64_t row = r + offset;
            const std::size_t k = static_cast<std::size_t>(r * d + c);
            EXPECT_TRUE(same_bits(flat_at(table.rounded, static_cast<std::int64_t>(k)), correctly_rounded(convention, d, row, c, format)))
                << convention.name << " d=" << d << " row=" << row << " col=" << c << ' ' << format.name;
            // A table's exact values come from the first step when its bound
            // allows: within 2^-100 |x|, not always the nearest double-double
            // exact_value returns (itself within 2^-108 |x|).
            const DoubleDouble exact = exact_value(convention, d, row, c);
            const double difference = (table.exact[k].hi - exact.hi) + (table.exact[k].lo - exact.lo);
            EXPECT_LE(std::fabs(difference), std::ldexp(std::fabs(exact.hi), -99))
                << convention.name << " d=" << d << " row=" << row << " col=" << c;
          }
        }
      }
    }
  }
}

TEST(ReferenceTable, anOffsetShiftsTheRows) {
  const Convention convention = *find_preset("tensor2tensor");
  const ReferenceTable from_zero = reference_table(convention, {20, 12, 0}, FormatId::float32, 1);
  const ReferenceTable from_seven = reference_table(convention, {13, 12, 7}, FormatId::float32, 1);
  for (std::size_t k = 0; k < from_seven.exact.size(); ++k) {
    const std::size_t shifted = k + 7 * 12;
    EXPECT_TRUE(same_bits(flat_at(from_seven.rounded, static_cast<std::int64_t>(k)), flat_at(from_zero.rounded, static_cast<std::int64_t>(shifted)))) << "entry " << k;
    EXPECT_TRUE(same_bits(from_seven.exact[k].hi, from_zero.exact[shifted].hi)) << "entry " << k;
  }
}

TEST(ReferenceTable, fairseqPaddingRowIsPositiveZeroWithAnExactZero) {
  const Convention fairseq = *find_preset("fairseq");
  const ReferenceTable table = reference_table(fairseq, {4, 8, 0}, FormatId::bfloat16, 1);
  for (std::int64_t c = 0; c < 8; ++c) {
    const std::size_t k = static_cast<std::size_t>(1 * 8 + c);  // row padding_idx = 1
    EXPECT_EQ(std::bit_cast<std::uint64_t>(flat_at(table.rounded, static_cast<std::int64_t>(k))), 0u) << "col " << c;
    EXPECT_EQ(table.exact[k].hi, 0.0);
    EXPECT_EQ(table.exact[k].lo, 0.0);
    EXPECT_NE(flat_at(table.rounded, static_cast<std::int64_t>(static_cast<std::size_t>(2 * 8 + c))), 0.0) << "row 2 is a real position";
  }
  // With the padding row above the table, no row is zeroed.
  const ReferenceTable shifted = reference_table(fairseq, {4, 8, 2}, FormatId::bfloat16, 1);
  for (std::size_t k = 0; k < shifted.exact.size(); ++k) EXPECT_NE(shifted.exact[k].hi, 0.0) << "entry " << k;
}

TEST(ReferenceTable, oddWidthsFollowEachPresetsPolicy) {
  for (const Convention& convention : presets()) {
    const std::int64_t d = 9;
    if (convention.odd_dim == OddDimPolicy::reject) {
      EXPECT_THROW(reference_table(convention, {3, d, 0}, FormatId::float32, 1), ConventionError) << convention.name;
      EXPECT_THROW(exact_value(convention, d, 1, 0), ConventionError) << convention.name;
      continue;
    }
    const ReferenceTable table = reference_table(convention, {3, d, 2}, FormatId::float64, 1);
    int zero_columns = 0;
    for (std::int64_t c = 0; c < d; ++c) {
      bool all_zero = true;
      for (std::int64_t r = 0; r < 3; ++r) {
        const double v = flat_at(table.rounded, static_cast<std::int64_t>(static_cast<std::size_t>(r * d + c)));
        all_zero = all_zero && std::bit_cast<std::uint64_t>(v) == 0u;
      }
      zero_columns += all_zero ? 1 : 0;
    }
    // zero_column appends one +0 column; extra_sin gives sin a ninth column instead.
    EXPECT_EQ(zero_columns, convention.odd_dim == OddDimPolicy::zero_column ? 1 : 0) << convention.name;
  }
}

TEST(ReferenceTable, theThreadCountDoesNotChangeASingleBit) {
  const Convention fairseq = *find_preset("fairseq");
  const TableRequest request{40, 65, 0};
  const ReferenceTable one = reference_table(fairseq, request, FormatId::float16, 1);
  for (int threads : {2, 3, 0, 7}) {
    EXPECT_TRUE(same_tables(one, reference_table(fairseq, request, FormatId::float16, threads)))
        << threads << " threads";
  }
}

TEST(ReferenceTable, badRequestsAreRefusedNamingTheFlag) {
  const Convention vaswani = *find_preset("vaswani");
  auto message = [&](const TableRequest& request) {
    try {
      reference_table(vaswani, request, FormatId::float32, 1);
    } catch (const ConventionError& error) {
      return std::string(error.what());
    }
    return std::string("no error");
  };
  EXPECT_NE(message({-1, 8, 0}).find("--rows"), std::string::npos);
  EXPECT_NE(message({4, 8, -2}).find("--offset"), std::string::npos);
  EXPECT_NE(message({4, 0, 0}).find("--dim"), std::string::npos);
  EXPECT_NE(message({4, 8, max_exact_position - 3}).find("--offset"), std::string::npos);
  EXPECT_THROW(reference_table(vaswani, {4, 8, 0}, FormatId::float32, -1), std::invalid_argument);

  Convention broken = vaswani;
  broken.frequency.base = -10.0;
  try {
    reference_table(broken, {4, 8, 0}, FormatId::float32, 1);
    ADD_FAILURE() << "a negative base has no real frequency";
  } catch (const ConventionError& error) {
    EXPECT_NE(std::string(error.what()).find("base"), std::string::npos) << error.what();
  }
}

// Informational only: the cost per entry and the escalations of a 512 x 512
// float32 table (the 8192 x 1024 target is ~7 us per entry per core).
TEST(ReferenceTable, printsTheCostOfA512By512Float32Table) {
  const Convention vaswani = *find_preset("vaswani");
  const unsigned cores = std::max(1u, std::thread::hardware_concurrency());
  const auto start = std::chrono::steady_clock::now();
  const ReferenceTable table = reference_table(vaswani, {512, 512, 0}, FormatId::float32, 0);
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  const double entries = 512.0 * 512.0;
  std::cout << "512 x 512 float32 reference table: " << seconds << " s on " << cores << " threads, "
            << seconds * 1e6 * cores / entries << " us per entry per core, " << table.escalations
            << " escalations\n";
  EXPECT_EQ(table.exact.size(), 512u * 512u);
}

}  // namespace
}  // namespace pecheck::reference
