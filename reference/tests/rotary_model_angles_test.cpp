// A computation model's angles in the first step's terms, a row at a time
// (model_row_angles, the loop the rotary tiers run on every row of a model's
// cache) against one entry at a time through the general helpers
// (model_first_step_angle: round_word, binary_angle_steps,
// first_step_applies): the same positions, frequencies and verdicts bit for
// bit, for every rule and computation model at positions across [0, 2^24),
// and for hand-made products at the format's midpoints, binade edges and
// outside its normal range (the general path's entries).
#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "pecheck/reference/rotary_reference.hpp"
#include "pecheck/rotary_convention.hpp"
#include "pecheck/testing/presets.hpp"
#include "rotary_model_angles.hpp"

namespace pecheck::reference {
namespace {

// The row path against the entry path for one row of inv_freq values.
void expect_same_row(double position, const std::vector<double>& inv_freq, const Format& format,
                     const std::string& where) {
  const std::size_t n = inv_freq.size();
  std::vector<double> positions(n);
  StepsFrequencies row{std::vector<StepsFrequency>(n)};
  std::vector<unsigned char> applies(n);
  model_row_angles(position, inv_freq, format, positions.data(), row, applies.data());
  for (std::size_t i = 0; i < n; ++i) {
    std::int64_t m = 0;
    StepsFrequency f;
    const bool expected = model_first_step_angle(position, inv_freq[i], format, m, f);
    const std::string at = where + " p " + std::to_string(position) + " inv_freq " + std::to_string(inv_freq[i]);
    ASSERT_EQ(applies[i], expected ? 1 : 0) << at;
    // Where it does not apply, the stand-in the double tier runs on.
    const double want_m = expected ? static_cast<double>(m) : 1.0;
    const StepsFrequency want = expected ? f : StepsFrequency{1.0, 0.0, 0.0, 0.0};
    ASSERT_EQ(std::bit_cast<std::uint64_t>(positions[i]), std::bit_cast<std::uint64_t>(want_m)) << at;
    ASSERT_EQ(std::bit_cast<std::uint64_t>(row.f0[i]), std::bit_cast<std::uint64_t>(want.f0)) << at;
    ASSERT_EQ(std::bit_cast<std::uint64_t>(row.f1[i]), std::bit_cast<std::uint64_t>(want.f1)) << at;
    ASSERT_EQ(std::bit_cast<std::uint64_t>(row.f2[i]), std::bit_cast<std::uint64_t>(want.f2)) << at;
    ASSERT_EQ(std::bit_cast<std::uint64_t>(row.error[i]), std::bit_cast<std::uint64_t>(want.error)) << at;
  }
}

TEST(RotaryModelAngles, rowsAreTheEntryPathsForEveryRuleAndModel) {
  std::vector<std::int64_t> positions = {0, 1, 2, 3, 7, 255, 256, 4095, 4096, 4097, 65535, 131071};
  for (int k = 5; k < 25; ++k) positions.push_back((std::int64_t{1} << k) - 1);
  std::mt19937_64 random(31);
  for (int k = 0; k < 64; ++k) positions.push_back(static_cast<std::int64_t>(random() % (std::uint64_t{1} << 24)));
  std::int64_t rows = 0;
  for (const RotaryConvention& c : testing::every_rotary_rule()) {
    for (const ComputationModel& model : computation_models()) {
      std::vector<double> inv_freq;
      for (std::int64_t i = 0; i < rotary_derived(c).frequencies; ++i) {
        inv_freq.push_back(rotary_model_inv_freq(c, i, model));
      }
      for (const std::int64_t p : positions) {
        const double rounded = round_to_format(static_cast<double>(p), format_of(model.position));
        expect_same_row(rounded, inv_freq, format_of(model.angle), c.name + " " + model.name);
        if (HasFatalFailure()) return;
        ++rows;
      }
    }
  }
  EXPECT_GT(rows, 1000);
}

// Products p w whose double hi lies on or next to a midpoint of the format
// (round_word then looks across by lo's sign), at binade edges, and outside
// the format's normal range, in every narrow format and float64.
TEST(RotaryModelAngles, midpointsEdgesAndOutOfRangeProductsAreTheEntryPaths) {
  std::mt19937_64 random(25);
  for (const FormatId id : {FormatId::float32, FormatId::float16, FormatId::bfloat16, FormatId::float64}) {
    const Format& format = format_of(id);
    for (const double p : {3.0, 5.0, 7.0, 1000.0, 12345.0, 65535.0, 16777215.0}) {
      std::vector<double> inv_freq;
      for (int k = 0; k < 512; ++k) {
        // A midpoint (2 m + 1) 2^(e - precision) of the format in the binade of 2^e.
        const int e = static_cast<int>(random() % 40) - 20;
        const auto m = static_cast<double>(random() % (std::uint64_t{1} << (format.precision - 1)));
        const double midpoint =
            std::ldexp(2.0 * (std::ldexp(1.0, format.precision - 1) + m) + 1.0, e - format.precision);
        const double w = midpoint / p;
        inv_freq.push_back(w);
        inv_freq.push_back(std::nextafter(w, 0.0));
        inv_freq.push_back(std::nextafter(w, 1.0));
        // A power of two (a binade edge) and its neighbours.
        const double edge = std::ldexp(1.0, e) / p;
        inv_freq.push_back(edge);
        inv_freq.push_back(std::nextafter(edge, 0.0));
        inv_freq.push_back(std::nextafter(edge, 1.0));
      }
      // Past the format's normal range, both ways, and signed.
      for (const int e : {format.min_exponent - 3, format.min_exponent - 1, format.min_exponent,
                          format.max_exponent - 1, format.max_exponent, format.max_exponent + 2, -1060, 1020}) {
        inv_freq.push_back(std::ldexp(1.37, e) / p);
        inv_freq.push_back(-std::ldexp(1.37, e) / p);
      }
      inv_freq.push_back(0.0);
      expect_same_row(p, inv_freq, format, std::string(format.name));
      expect_same_row(-p, inv_freq, format, std::string(format.name));
      if (HasFatalFailure()) return;
    }
  }
}

}  // namespace
}  // namespace pecheck::reference
