// Diffusion timestep conventions (diffusers' get_timestep_embedding with its
// four arguments) in the reference and the fast path: every sampled entry is
// the nearest value of each format to an independent ~530-bit Boost/MPFR
// evaluation of the formula, and the fast path's float32 entries are within
// its 1 ULP claim (fast_encoding.hpp) of the exact values, for arguments no
// preset has: downscale_freq_shift 0, 1 and 2, scales 1000, 0.25 and 3.7,
// max_period 10000 and 100, flipped or not, even and odd widths.
#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

#include "independent_oracle.hpp"
#include "pecheck/fast_encoding.hpp"
#include "pecheck/reference/reference.hpp"
#include "pecheck/ulp.hpp"

namespace pecheck::reference {
namespace {

using testing::HighReal;

constexpr unsigned independent_digits = 160;  // ~532 bits

std::vector<Convention> timestep_conventions() {
  std::vector<Convention> all;
  for (const bool flip : {false, true}) {
    for (const std::int64_t shift : {0, 1, 2}) {
      for (const double scale : {1.0, 1000.0, 0.25, 3.7}) {
        for (const double max_period : {10000.0, 100.0}) {
          TimestepEmbedding fields{flip, shift, scale, max_period};
          all.push_back(timestep_convention("timestep flip " + std::to_string(flip) + " shift " +
                                                std::to_string(shift) + " scale " + std::to_string(scale) +
                                                " max_period " + std::to_string(max_period),
                                            fields));
        }
      }
    }
  }
  return all;
}

TEST(TimestepConvention, theArgumentsGiveGetTimestepEmbeddingsColumnsAndFrequencies) {
  TimestepEmbedding fields;
  fields.flip_sin_to_cos = true;
  fields.downscale_freq_shift = 0;
  fields.scale = 3.0;
  const Convention flipped = timestep_convention("flipped", fields);
  const std::vector<ColumnSpec> columns = column_layout(flipped, 7);  // n = 3, then the zero pad
  const std::vector<ColumnKind> kinds = {ColumnKind::cos, ColumnKind::cos, ColumnKind::cos, ColumnKind::sin,
                                         ColumnKind::sin, ColumnKind::sin, ColumnKind::zero};
  for (std::size_t c = 0; c < kinds.size(); ++c) EXPECT_EQ(columns[c].kind, kinds[c]) << "column " << c;
  // w_i = scale exp(-ln(max_period) i / (n - shift)), from the formula in double.
  for (std::int64_t i = 0; i < 3; ++i) {
    EXPECT_DOUBLE_EQ(frequency_value(flipped, 7, i), 3.0 * std::exp(-std::log(10000.0) * static_cast<double>(i) / 3.0));
  }
  const std::optional<TimestepEmbedding> back = timestep_fields(flipped);
  ASSERT_TRUE(back.has_value());
  EXPECT_TRUE(back->flip_sin_to_cos);
  EXPECT_EQ(back->downscale_freq_shift, 0);
  EXPECT_EQ(back->scale, 3.0);
}

TEST(TimestepConvention, impossibleArgumentsAndWidthsAreRefusedNamingTheField) {
  TimestepEmbedding fields;
  fields.downscale_freq_shift = -1;
  EXPECT_THROW(timestep_convention("bad", fields), ConventionError);
  fields.downscale_freq_shift = 2;
  fields.scale = 0.0;
  EXPECT_THROW(timestep_convention("bad", fields), ConventionError);
  fields.scale = 1.0;
  const Convention shift_two = timestep_convention("shift two", fields);
  // n - shift must be at least 1: d = 5 has n = 2, and get_timestep_embedding divides by 0.
  try {
    check_dim(shift_two, 5);
    ADD_FAILURE() << "d = 5 with downscale_freq_shift 2 was accepted";
  } catch (const ConventionError& error) {
    EXPECT_NE(std::string(error.what()).find("downscale_freq_shift"), std::string::npos) << error.what();
  }
  EXPECT_NO_THROW(check_dim(shift_two, 6));
}

RC_GTEST_PROP(ReferenceTimestep, everySampledEntryIsTheNearestValueOfEachFormat, ()) {
  testing::use_decimal_digits(independent_digits);
  const Convention convention = *rc::gen::elementOf(timestep_conventions()).as("convention");
  const std::int64_t d = *rc::gen::inRange<std::int64_t>(std::max<std::int64_t>(convention.min_dim, 2), 1025).as("d");
  const auto positions = *rc::gen::container<std::vector<std::int64_t>>(
                              20, rc::gen::weightedOneOf<std::int64_t>(
                                      {{4, rc::gen::inRange<std::int64_t>(0, 1000)},
                                       {2, rc::gen::inRange<std::int64_t>(0, max_exact_position)},
                                       {1, rc::gen::just(max_exact_position - 1)}}))
                              .as("timesteps");
  const auto columns = *rc::gen::container<std::vector<std::int64_t>>(5, rc::gen::inRange<std::int64_t>(0, d))
                            .as("columns");
  for (const std::int64_t p : positions) {
    for (const std::int64_t col : columns) {
      const HighReal x = testing::independent_value(convention, d, p, col);
      for (const Format* format : testing::all_formats) {
        const double r = correctly_rounded(convention, d, p, col, *format);
        const std::string failure = testing::rounding_failure(x, r, *format);
        if (!failure.empty()) {
          RC_FAIL(convention.name + " d=" + std::to_string(d) + " t=" + std::to_string(p) + " col=" +
                  std::to_string(col) + " in " + std::string(format->name) + ": " + failure);
        }
      }
    }
  }
}

// The fast path's float32 table against the reference's exact values: its
// claim, every entry within 1 float32 ULP below 2^24, holds with a scale
// (the angle times up to 1000, frequencies up to 159 turns per timestep).
TEST(FastTimestep, float32EntriesAreWithinOneUlpOfTheExactValues) {
  const Format& float32 = format_of(FormatId::float32);
  double worst = 0.0;
  std::string worst_where;
  for (const Convention& convention : timestep_conventions()) {
    for (const std::int64_t d : {64, 65}) {
      for (const std::int64_t first : {std::int64_t{0}, std::int64_t{990}, max_exact_position - 4}) {
        const TableRequest request{4, d, first};
        const Table fast = fast_table(convention, request, FormatId::float32, 1);
        for (std::int64_t r = 0; r < request.rows; ++r) {
          for (std::int64_t c = 0; c < d; ++c) {
            const UlpError error = ulp_error(fast.at(r, c), exact_value(convention, d, first + r, c), float32);
            ASSERT_EQ(error.mismatch, Mismatch::none) << convention.name << " d=" << d << " t=" << first + r;
            if (error.ulps > worst) {
              worst = error.ulps;
              worst_where = convention.name + " d=" + std::to_string(d) + " t=" + std::to_string(first + r) +
                            " column " + std::to_string(c);
            }
          }
        }
      }
    }
  }
  std::printf("fast timestep tables, float32: worst %.4f ULP (%s), claim 1\n", worst, worst_where.c_str());
  EXPECT_LE(worst, 1.0) << worst_where;
}

}  // namespace
}  // namespace pecheck::reference
