// The libm allowance of rotary caches: zero where the model computes exactly
// (position 0), growing with the angle, the same for a cos column and the sin
// column of the same frequency, and its decisions through the one interface.
#include <gtest/gtest.h>

#include <cmath>
#include <span>
#include <vector>

#include "pecheck/accuracy/libm_allowance.hpp"
#include "pecheck/reference/rotary_reference.hpp"
#include "pecheck/ulp.hpp"

namespace pecheck::accuracy {
namespace {

TEST(LibmAllowance, isTheAttentionFactorTimesTheInvFreqAndAngleRoundingAllowance) {
  const RotaryConvention llama2 = *find_rotary_preset("llama2");
  const ComputationModel model = *find_computation_model("hf-float32");
  const std::int64_t columns = rotary_columns(llama2);
  const LibmAllowance allowance(llama2, model, 10, columns);
  EXPECT_EQ(allowance.name(), "the libm allowance");
  const double factor = rotary_derived(llama2).attention_factor;
  for (std::int64_t column : {std::int64_t{0}, std::int64_t{5}, columns - 1}) {
    const std::int64_t i = rotary_column_frequency(llama2, column);
    const double angle = 17.0 * reference::rotary_model_inv_freq(llama2, i, model);  // row 7: position 17
    const double expected =
        factor * (libm_inv_freq_allowance(model) * angle + ulp_of(DoubleDouble{angle, 0.0}, format_of(model.angle)));
    EXPECT_EQ(allowance.bound(7, column, {0.5, 0.0}), expected) << "column " << column;
    // The sin table's column c (column + columns in a cache row) has cos column c's frequency.
    EXPECT_EQ(allowance.bound(7, columns + column, {0.5, 0.0}), expected);
  }
  EXPECT_LT(allowance.bound(1, 0, {0.5, 0.0}), allowance.bound(100, 0, {0.5, 0.0}));
}

TEST(LibmAllowance, admitsNothingButTheExactValueAtPositionZero) {
  const RotaryConvention llama2 = *find_rotary_preset("llama2");
  const LibmAllowance allowance(llama2, *find_computation_model("hf-float32"), 0, rotary_columns(llama2));
  EXPECT_EQ(allowance.bound(0, 3, {1.0, 0.0}), 0.0);
  const AllowanceDecision decision = judge(allowance, 0, 3, {1.0, 0.0}, 0x1p-24);
  EXPECT_FALSE(decision.admitted);
  EXPECT_TRUE(std::isinf(decision.ratio));
  const AllowanceDecision later = judge(allowance, 50, 3, {1.0, 0.0}, 0.0);
  EXPECT_TRUE(later.admitted);
  EXPECT_EQ(later.ratio, 0.0);
}

// The accumulator takes a row's bounds in one pass (row_bounds): the same
// bits as bound() for every column of a cache row (cos columns, then sin),
// every preset, at position 0 (bound 0), small and large positions.
TEST(LibmAllowance, rowBoundsAreTheBoundsColumnByColumn) {
  const ComputationModel model = *find_computation_model("hf-float32");
  for (const RotaryConvention& c : rotary_presets()) {
    const std::int64_t columns = rotary_columns(c);
    const LibmAllowance allowance(c, model, 3, columns);
    std::vector<double> exact(static_cast<std::size_t>(2 * columns), 0.5);
    std::vector<double> bounds(exact.size());
    for (const std::int64_t row : {std::int64_t{-3}, std::int64_t{0}, std::int64_t{1000}, std::int64_t{16777200}}) {
      allowance.row_bounds(row, {}, nullptr, exact, bounds);
      for (std::int64_t column = 0; column < 2 * columns; ++column) {
        ASSERT_EQ(bounds[static_cast<std::size_t>(column)], allowance.bound(row, column, {0.5, 0.0}))
            << c.name << " row " << row << " column " << column;
      }
      // Entries of given columns (a row of distinct entries): each column's
      // bound, wherever the entry stands; a column past the row's goes
      // through bound().
      std::vector<std::int64_t> given;
      for (std::int64_t k = 2 * columns - 1; k >= 0; k -= 3) given.push_back(k);
      given.push_back(2 * columns + 5);
      std::vector<double> given_bounds(given.size());
      allowance.row_bounds(row, given, nullptr, std::span<const double>(exact).first(given.size()), given_bounds);
      for (std::size_t e = 0; e < given.size(); ++e) {
        ASSERT_EQ(given_bounds[e], allowance.bound(row, given[e], {0.5, 0.0}))
            << c.name << " row " << row << " column " << given[e];
      }
    }
  }
}

}  // namespace
}  // namespace pecheck::accuracy
