// The oracle's cheap tiers (the double-word first step, and the double tier
// of the narrow formats) against the MPFR path: each enclosure must contain
// MPFR's and every rounding it decides must be MPFR's, bit for bit, on random entries of every preset,
// on the entries closest to zeros of sin and cos, at positions up to 2^24,
// and on the regression list of hard cases; and whole tables built with it
// must equal those built by MPFR alone.
#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <fstream>
#include <functional>
#include <iostream>
#include <mutex>
#include <random>
#include <sstream>
#include <stdexcept>
#include <string>

#include "../src/table_builder.hpp"
#include "first_step_agreement.hpp"
#include "hard_positions.hpp"

namespace pecheck::reference {
namespace {

void print(const char* what, const AgreementCounts& counts) {
  std::cout << what << ": " << counts.entries << " entries, " << counts.not_applicable
            << " left to MPFR outright, undecided roundings float64/float32/float16/bfloat16 " << counts.undecided[0]
            << '/' << counts.undecided[1] << '/' << counts.undecided[2] << '/' << counts.undecided[3]
            << "; the double tier's float32/float16/bfloat16 " << counts.double_tier_undecided[1] << '/'
            << counts.double_tier_undecided[2] << '/' << counts.double_tier_undecided[3] << "; "
            << counts.exact_accepted << " exact values accepted\n";
}

// 10^6 entries (5 * 10^5 positions and frequencies, sin and cos each), in
// blocks of one random preset and width (up to 2048: wider ones only add
// frequencies of the same kind, and each costs an MPFR set-up); positions
// uniform below 2^24, a tenth below 2^10 where the angles are small.
TEST(FirstStepAgreement, randomEntriesOfEveryPresetAgreeWithMpfr) {
  std::mt19937_64 random(20170612);
  const std::vector<Convention> conventions = presets();
  AgreementCounts total;
  for (int block = 0; block < 100; ++block) {
    const Convention& convention = conventions[static_cast<std::size_t>(block) % conventions.size()];
    std::uniform_int_distribution<std::int64_t> half_width(std::max<std::int64_t>(convention.min_dim, 2) / 2, 1024);
    const std::int64_t dim = 2 * half_width(random);
    FirstStepChecker checker(convention, dim);
    std::uniform_int_distribution<std::int64_t> frequency(0, checker.frequencies() - 1);
    std::uniform_int_distribution<std::int64_t> far(1, max_exact_position);
    std::uniform_int_distribution<std::int64_t> near(1, 1024);
    for (int k = 0; k < 5000; ++k) {
      checker.check(k % 10 == 0 ? near(random) : far(random), frequency(random), total);
    }
  }
  print("random entries", total);
  EXPECT_EQ(total.failures, 0) << total.first_failure;
  EXPECT_GE(total.entries, 1000000);
  EXPECT_EQ(total.not_applicable, 0);
  // Useful as well as right: float64 roundings are undecided only within
  // ~2^-100 of a boundary, and the exact values stand but near zeros.
  EXPECT_LE(total.undecided[0], 10);
  EXPECT_GE(total.exact_accepted, total.entries - 100);
  // The double tier's bound is about 10 u relative (double_tier.cpp), so a
  // float32 rounding is undecided with probability near 2^-25 per entry:
  // under one expected in 10^6, and 10 would mean the bound is far too wide.
  EXPECT_LE(total.double_tier_undecided[1], 10);
}

// Every frequency of every preset at a few widths, at the continued-fraction
// positions where p w comes closest to a zero of sin or of cos.
TEST(FirstStepAgreement, entriesNearestTheZerosOfSinAndCosAgreeWithMpfr) {
  testing::use_decimal_digits(60);
  AgreementCounts total;
  for (const Convention& convention : presets()) {
    for (std::int64_t dim : {std::max<std::int64_t>(convention.min_dim, 2), std::int64_t{64}, std::int64_t{1024}}) {
      FirstStepChecker checker(convention, dim);
      for (std::int64_t i = 0; i < checker.frequencies(); ++i) {
        const testing::HighReal w = testing::independent_frequency(convention, dim, i);
        for (std::int64_t p : testing::positions_near_zeros(w, max_exact_position + 1)) checker.check(p, i, total);
      }
    }
  }
  print("near zeros", total);
  EXPECT_EQ(total.failures, 0) << total.first_failure;
  EXPECT_GE(total.entries, 10000);
}

// The last positions below and at 2^24, every frequency, a wide table.
TEST(FirstStepAgreement, positionsUpTo2To24AgreeWithMpfr) {
  AgreementCounts total;
  for (const Convention& convention : presets()) {
    FirstStepChecker checker(convention, 2048);
    for (std::int64_t p = max_exact_position - 7; p <= max_exact_position; ++p) {
      for (std::int64_t i = 0; i < checker.frequencies(); ++i) checker.check(p, i, total);
    }
  }
  print("positions up to 2^24", total);
  EXPECT_EQ(total.failures, 0) << total.first_failure;
}

// The regression list: hard entries found by the searches above and by the
// large sweep, as data (preset, width, position, frequency index, why).
TEST(FirstStepAgreement, theRegressionListOfHardCasesAgreesWithMpfr) {
  std::ifstream list(std::string(PECHECK_REFERENCE_TEST_DATA) + "/first_step_hard_cases.tsv");
  ASSERT_TRUE(list) << "cannot open the hard-case list";
  AgreementCounts total;
  std::string line;
  int cases = 0;
  while (std::getline(list, line)) {
    if (line.empty() || line[0] == '#') continue;
    std::istringstream fields(line);
    std::string preset;
    std::int64_t dim = 0, position = 0, frequency = 0;
    ASSERT_TRUE(fields >> preset >> dim >> position >> frequency) << "bad line: " << line;
    const std::optional<Convention> convention = find_preset(preset);
    ASSERT_TRUE(convention) << "unknown preset in: " << line;
    FirstStepChecker checker(*convention, dim);
    checker.check(position, frequency, total);
    ++cases;
  }
  print("regression list", total);
  EXPECT_GE(cases, 20);
  EXPECT_EQ(total.failures, 0) << total.first_failure;
}

bool same_bits(double a, double b) { return std::bit_cast<std::uint64_t>(a) == std::bit_cast<std::uint64_t>(b); }

// Every preset (an odd width where it allows one) at offsets 0, 1000 and the
// last rows below 2^24, in every format: a 40-row request and its table by
// the MPFR path alone, handed to `check`.
void for_each_small_table(
    const std::function<void(const Convention&, const TableRequest&, const Format&, const ReferenceTable&)>& check) {
  for (const Convention& convention : presets()) {
    const std::int64_t dim = convention.odd_dim == OddDimPolicy::reject ? 34 : 33;
    for (std::int64_t offset : {std::int64_t{0}, std::int64_t{1000}, max_exact_position - 40}) {
      const TableRequest request{40, dim, offset};
      for (const Format* format : testing::all_formats) {
        const Format& f = format_of(format->id);
        check(convention, request, f, build_reference_table(convention, request, f, 2, default_first_precision));
      }
    }
  }
}

// Whole tables, through the table builder (layouts, zero rows, odd widths,
// position 0), for every precision of exact values asked for (the double
// tier runs for the narrow formats unless full ones are): the roundings
// equal the MPFR path's bit for bit, the exact values are within the
// promised tolerance (plus 2^-100 for the MPFR pair's own 2^-108 and the
// rounding of the difference taken here).
TEST(FirstStepAgreement, tablesOfEveryPresetAndFormatEqualTheMpfrPathBitForBit) {
  for_each_small_table(
      [](const Convention& convention, const TableRequest& request, const Format& f, const ReferenceTable& slow) {
        const std::int64_t dim = request.dim;
        const std::int64_t offset = request.row_offset;
        for (ExactValues exact : {ExactValues::full, ExactValues::for_format, ExactValues::none}) {
          const ReferenceTable fast =
              build_reference_table(convention, request, f, 2, default_first_precision, FirstStep::double_word, exact);
          ASSERT_EQ(fast.exact.size(), exact == ExactValues::none ? 0 : slow.exact.size());
          const double tolerance = exact_tolerance(exact, f.id);
          for (std::int64_t r = 0; r < request.rows; ++r) {
            for (std::int64_t c = 0; c < dim; ++c) {
              const auto k = static_cast<std::size_t>(r * dim + c);
              ASSERT_TRUE(same_bits(fast.rounded.at(r, c), slow.rounded.at(r, c)))
                  << convention.name << ' ' << f.name << " row " << r + offset << " col " << c;
              if (exact == ExactValues::none) continue;
              const double bound = std::fabs(slow.exact[k].hi) * (tolerance + 0x1p-100);
              const double difference = (fast.exact[k].hi - slow.exact[k].hi) + (fast.exact[k].lo - slow.exact[k].lo);
              ASSERT_LE(std::fabs(difference), bound) << convention.name << " row " << r + offset << " col " << c;
            }
          }
        }
      });
}

// The rows a measurement visits with the rounding skipped (validate's
// comparison): no rounded values, every exact value within the promised
// tolerance of the MPFR path's, for every preset, format and precision of
// exact values, whether a row hands them as double-doubles or, when the
// double tier settled it whole, as plain doubles (both occur); and asking for
// neither rounded nor exact values is refused.
TEST(FirstStepAgreement, rowsWithoutRoundingCarryExactValuesWithinTheTolerance) {
  std::int64_t plain_rows = 0;
  std::int64_t pair_rows = 0;
  for_each_small_table([&](const Convention& convention, const TableRequest& request, const Format& f,
                           const ReferenceTable& slow) {
    const std::int64_t dim = request.dim;
    const std::int64_t offset = request.row_offset;
    for (ExactValues exact : {ExactValues::full, ExactValues::for_format}) {
      const double tolerance = exact_tolerance(exact, f.id);
      std::int64_t visited = 0;
      std::int64_t rounded_seen = 0;
      std::int64_t failures = 0;
      std::string first_failure;
      std::mutex mutex;
      visit_reference_rows(convention, request, f, 2, default_first_precision, FirstStep::double_word, exact,
                           RoundedValues::skipped, [&](int, const ReferenceRow& row) {
                             const std::lock_guard<std::mutex> lock(mutex);
                             ++visited;
                             rounded_seen += static_cast<std::int64_t>(row.rounded.size());
                             ++(row.plain_exact.empty() ? pair_rows : plain_rows);
                             for (std::int64_t c = 0; c < dim; ++c) {
                               const auto k = static_cast<std::size_t>(row.row * dim + c);
                               const auto at = static_cast<std::size_t>(c);
                               const DoubleDouble got = row.plain_exact.empty() ? row.exact[at]
                                                                                : DoubleDouble{row.plain_exact[at], 0.0};
                               const double bound = std::fabs(slow.exact[k].hi) * (tolerance + 0x1p-100);
                               const double difference = (got.hi - slow.exact[k].hi) + (got.lo - slow.exact[k].lo);
                               if (std::fabs(difference) <= bound) continue;
                               if (failures++ == 0) {
                                 first_failure = std::string(convention.name) + ' ' + std::string(f.name) + " row " +
                                                 std::to_string(row.row + offset) + " col " + std::to_string(c);
                               }
                             }
                           });
      EXPECT_EQ(visited, request.rows);
      EXPECT_EQ(rounded_seen, 0);
      ASSERT_EQ(failures, 0) << first_failure;
    }
  });
  EXPECT_GT(plain_rows, 0);
  EXPECT_GT(pair_rows, 0);
  const Convention& vaswani = presets().front();
  EXPECT_THROW(visit_reference_rows(vaswani, TableRequest{2, 8, 0}, format_of(FormatId::float32), 1,
                                    default_first_precision, FirstStep::double_word, ExactValues::none,
                                    RoundedValues::skipped, [](int, const ReferenceRow&) {}),
               std::invalid_argument);
}

}  // namespace
}  // namespace pecheck::reference
