// The libm allowance's bounds of a row of given columns (row_bounds), where
// the columns run in consecutive stretches (a row of distinct entries: each
// table's first copies, as the rotary comparison hands them) and the bounds
// are computed from the inv_freq in place (or copied from an earlier stretch
// with the same inv_freq): the same bits as bound() for each entry, for
// stretches shorter and longer than the kernel's (64), starting anywhere, and
// one running past the row's columns (then every bound comes through bound()).
#include <gtest/gtest.h>

#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "pecheck/accuracy/libm_allowance.hpp"
#include "pecheck/reference/rotary_reference.hpp"

namespace pecheck::accuracy {
namespace {

TEST(LibmRowBounds, consecutiveColumnsGiveEachColumnsBound) {
  const ComputationModel model = *find_computation_model("hf-float32");
  for (const RotaryConvention& c : rotary_presets()) {
    const std::int64_t columns = rotary_columns(c);
    const LibmAllowance allowance(c, model, 5, columns);
    // Runs of columns (first, length): each table's first half (the
    // rotate-half layout's distinct entries), a long run across the tables,
    // short runs, and a run past the row's 2 columns columns.
    std::vector<std::vector<std::pair<std::int64_t, std::int64_t>>> layouts = {
        {{0, columns / 2}, {columns, columns / 2}},
        {{1, 2 * columns - 1}},
        {{3, 5}, {columns + 7, 9}, {0, 1}},
        {{0, columns / 2}, {2 * columns - 3, 6}},
    };
    // Whole stretches whose inv_freq repeat (a sin run after its cos run,
    // whose bounds are copied), among others that do not.
    if (columns >= 70) layouts.push_back({{0, 64}, {columns, 64}, {5, 64}, {columns + 5, 64}, {columns + 6, 20}});
    for (const auto& layout : layouts) {
      std::vector<std::int64_t> given;
      for (const auto& [first, length] : layout) {
        for (std::int64_t k = 0; k < length; ++k) given.push_back(first + k);
      }
      const std::vector<double> exact(given.size(), 0.5);
      std::vector<double> bounds(given.size());
      for (const std::int64_t row : {std::int64_t{0}, std::int64_t{1000}, std::int64_t{131000}}) {
        allowance.row_bounds(row, given, nullptr, exact, bounds);
        for (std::size_t e = 0; e < given.size(); ++e) {
          ASSERT_EQ(bounds[e], allowance.bound(row, given[e], {0.5, 0.0}))
              << c.name << " row " << row << " entry " << e << " column " << given[e];
        }
      }
    }
  }
}

// A plan made once for a row's columns (plan_columns: each entry's inv_freq
// and their repeat) gives the bounds the row's own derivation gives, row
// after row: columns whose inv_freq repeat whole (a row of distinct
// entries, sin's after cos's), repeat with a short last repetition, repeat
// among unequal neighbours (the interleaved layout's twins side by side) or
// not at all. A plan made for other columns (the same reversed), or by
// another allowance, is not used; a column past the row's gives no plan.
TEST(LibmRowBounds, aPlannedRowGivesTheRowsOwnBounds) {
  const ComputationModel model = *find_computation_model("hf-float32");
  for (const RotaryConvention& c : rotary_presets()) {
    const std::int64_t columns = rotary_columns(c);
    const LibmAllowance allowance(c, model, 5, columns);
    // Another model's inv_freq (float64's are not float32's).
    const LibmAllowance other(c, *find_computation_model("float64"), 5, columns);
    std::vector<std::vector<std::int64_t>> layouts;
    std::vector<std::int64_t> distinct;  // each table's first half
    for (std::int64_t k = 0; k < columns / 2; ++k) distinct.push_back(k);
    for (std::int64_t k = 0; k < columns / 2; ++k) distinct.push_back(columns + k);
    layouts.push_back(distinct);
    std::vector<std::int64_t> short_last = distinct;  // and a cut repetition
    for (std::int64_t k = 0; k < 3; ++k) short_last.push_back(columns + k);
    layouts.push_back(short_last);
    std::vector<std::int64_t> whole;  // both tables' every column, its neighbours unequal or not
    for (std::int64_t k = 0; k < 2 * columns; ++k) whole.push_back(k);
    layouts.push_back(whole);
    layouts.push_back({3, 1, 4, 1, 5, 9, 2, 6});  // no repeat
    for (const std::vector<std::int64_t>& given : layouts) {
      const std::unique_ptr<const ColumnsPlan> plan = allowance.plan_columns(given);
      ASSERT_NE(plan, nullptr);
      const std::unique_ptr<const ColumnsPlan> others = other.plan_columns(given);
      const std::vector<std::int64_t> reversed(given.rbegin(), given.rend());
      const std::unique_ptr<const ColumnsPlan> reversed_plan = allowance.plan_columns(reversed);
      const std::vector<double> exact(given.size(), 0.5);
      std::vector<double> planned(given.size()), own(given.size());
      for (const std::int64_t row : {std::int64_t{-5}, std::int64_t{0}, std::int64_t{1000}, std::int64_t{131000}}) {
        allowance.row_bounds(row, given, nullptr, exact, own);
        allowance.row_bounds(row, given, plan.get(), exact, planned);
        for (std::size_t e = 0; e < given.size(); ++e) {
          ASSERT_EQ(planned[e], own[e]) << c.name << " row " << row << " entry " << e << " column " << given[e];
          ASSERT_EQ(planned[e], allowance.bound(row, given[e], {0.5, 0.0})) << c.name << " row " << row;
        }
        for (const ColumnsPlan* wrong : {others.get(), reversed_plan.get()}) {
          allowance.row_bounds(row, given, wrong, exact, planned);
          for (std::size_t e = 0; e < given.size(); ++e) ASSERT_EQ(planned[e], own[e]) << c.name << " row " << row;
        }
      }
    }
    std::vector<std::int64_t> past = distinct;
    past.push_back(2 * columns);
    EXPECT_EQ(allowance.plan_columns(past), nullptr) << c.name;
  }
}

}  // namespace
}  // namespace pecheck::accuracy
