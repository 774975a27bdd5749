// Tables NumPy computes the ordinary way, angles p * w in float64 then
// np.sin / np.cos: they conform by the float64-angle bound
// (accuracy/angle_allowance.hpp) although most of their float64 entries are
// beyond the ULP budget, and the output says so. An error injected just above
// the bound deviates; just below, it conforms.
#include <gtest/gtest.h>

#include <cmath>

#include "numpy_tables.hpp"
#include "pecheck/accuracy/angle_allowance.hpp"
#include "pecheck/accuracy/budgets.hpp"
#include "pecheck/reference/reference.hpp"
#include "pecheck/table_file.hpp"
#include "pecheck/ulp.hpp"
#include "pecheck/validate/table_validation.hpp"
#include "pecheck/validate/validation_writers.hpp"

namespace pecheck::validate {
namespace {

const std::vector<std::string>& tables() {
  static const std::vector<std::string> all = {
      "vaswani 1024 128 0 float64 vaswani.npy --angles float64",
      "tensor2tensor 48 64 9000000 float64 t2t_far.npy --angles float64",
      "fairseq 300 66 0 float64 fairseq.npy --angles float64",
      "vaswani 256 64 60000 float32 vaswani_float32.npy --angles float64",
  };
  return all;
}

class NumpyFloat64 : public testing::NumpyTablesTest<tables> {};

std::string explain(const Validation& result) { return validation_text(result, "table"); }

TEST_F(NumpyFloat64, ordinaryFloat64TablesConformByTheFloat64AngleBound) {
  for (const std::string name : {"vaswani.npy", "t2t_far.npy", "fairseq.npy"}) {
    SCOPED_TRACE(name);
    const Validation result = validate_table(table(name));
    EXPECT_EQ(result.table().compared_format, FormatId::float64);
    EXPECT_EQ(result.verdict, ValidationVerdict::conforms) << explain(result);
    EXPECT_TRUE(result.hazards.empty()) << explain(result);
    ASSERT_TRUE(result.table().angle_allowance);
    ASSERT_TRUE(result.comparisons.front().measurement.abs_bound.has_value());
    const accuracy::AbsoluteBoundCheck& check = *result.comparisons.front().measurement.abs_bound;
    // The ULP budget alone is not met: many entries needed the bound.
    EXPECT_GT(result.comparisons.front().measurement.max_ulp, result.comparisons.front().measurement.budget_ulp);
    EXPECT_GT(check.beyond_ulp, result.comparisons.front().measurement.entries / 10);
    EXPECT_EQ(check.beyond_bound, 0);
    EXPECT_LE(check.worst_ratio, 1.0);
    // The output names the criterion that decided, with both errors side by side.
    const std::string text = explain(result);
    EXPECT_NE(text.find("criterion: the ULP budget or the float64-angle bound"), std::string::npos) << text;
    EXPECT_NE(text.find("each within the bound"), std::string::npos) << text;
    EXPECT_NE(text.find("worst against the float64-angle bound: row"), std::string::npos) << text;
    EXPECT_NE(text.find("abs error"), std::string::npos) << text;
  }
}

TEST_F(NumpyFloat64, aFloat32TableRoundedFromFloat64AnglesConforms) {
  const Validation result = validate_table(table("vaswani_float32.npy"));
  EXPECT_EQ(result.table().compared_format, FormatId::float32);
  EXPECT_EQ(result.verdict, ValidationVerdict::conforms) << explain(result);
}

TEST_F(NumpyFloat64, heldToTheUlpBudgetAloneTheSameTableDeviates) {
  ValidationOptions options;
  options.ulp_only = true;
  const Validation result = validate_table(table("vaswani.npy"), options);
  EXPECT_EQ(result.verdict, ValidationVerdict::deviates);
  EXPECT_FALSE(result.comparisons.front().measurement.abs_bound.has_value());
  EXPECT_NE(explain(result).find("criterion: the ULP budget alone"), std::string::npos) << explain(result);
}

// The entry whose bound is the most ULP of its value: where the bound, not
// the ULP budget, decides.
struct Entry {
  std::int64_t row = 0;
  std::int64_t column = 0;
  DoubleDouble exact;
  double bound = 0.0;
};

Entry most_bound_dependent_entry(const Table& table, const Convention& convention, std::int64_t row_offset) {
  const TableRequest request{table.rows, table.cols, row_offset};
  const reference::ReferenceTable exact = reference::reference_table(convention, request, table.format);
  const accuracy::Float64AngleAllowance allowance(convention, table.cols, table.format);
  Entry best;
  double best_ulps = 0.0;
  for (std::int64_t k = 0; k < table.rows * table.cols; ++k) {
    const DoubleDouble x = exact.exact[static_cast<std::size_t>(k)];
    const double bound = allowance.bound(row_offset + k / table.cols, k % table.cols, x);
    const double ulps = bound / ulp_of(x, format_of(table.format));
    if (ulps > best_ulps) {
      best_ulps = ulps;
      best = {k / table.cols, k % table.cols, x, bound};
    }
  }
  return best;
}

// The table with one entry moved to exact + factor * bound, rounded to the format.
Table with_error(Table table, const Entry& entry, double factor) {
  const double value = round_to_format(entry.exact.hi + (entry.exact.lo + factor * entry.bound), format_of(table.format));
  table.set(entry.row, entry.column, value);
  return table;
}

TEST_F(NumpyFloat64, anErrorJustAboveTheBoundDeviatesAndJustBelowConforms) {
  for (const std::string name : {"vaswani.npy", "vaswani_float32.npy"}) {
    SCOPED_TRACE(name);
    const Table original = table(name);
    ValidationOptions options;
    options.convention = *find_preset("vaswani");
    options.row_offset = name == "vaswani.npy" ? 0 : 60000;
    const Entry entry = most_bound_dependent_entry(original, *options.convention, *options.row_offset);
    const double budget = accuracy::ulp_budget(accuracy::BudgetKind::third_party, original.format).max_ulp;
    const Format& format = format_of(original.format);

    // 5% above: beyond the ULP budget too (the bound is many ULP here), so it must fail.
    const Table above = with_error(original, entry, 1.05);
    const double above_error = absolute_error(above.at(entry.row, entry.column), entry.exact);
    ASSERT_GT(above_error, entry.bound);
    ASSERT_GT(ulp_error(above.at(entry.row, entry.column), entry.exact, format).ulps, budget);
    const Validation deviates = validate_table(above, options);
    EXPECT_EQ(deviates.verdict, ValidationVerdict::deviates) << explain(deviates);
    ASSERT_TRUE(deviates.comparisons.front().measurement.abs_bound.has_value());
    EXPECT_EQ(deviates.comparisons.front().measurement.abs_bound->beyond_bound, 1) << explain(deviates);
    EXPECT_EQ(deviates.comparisons.front().measurement.abs_bound->worst.row, entry.row);
    EXPECT_EQ(deviates.comparisons.front().measurement.abs_bound->worst.column, entry.column);
    ASSERT_FALSE(deviates.reasons.empty());
    EXPECT_NE(deviates.reasons[0].find("float64-angle bound"), std::string::npos) << deviates.reasons[0];
    // One bad entry: no fault of angles or positions is claimed for the rest.
    EXPECT_TRUE(deviates.hazards.empty()) << explain(deviates);

    // 5% below, still far beyond the ULP budget: it conforms by the bound.
    const Table below = with_error(original, entry, 0.95);
    ASSERT_LT(absolute_error(below.at(entry.row, entry.column), entry.exact), entry.bound);
    ASSERT_GT(ulp_error(below.at(entry.row, entry.column), entry.exact, format).ulps, budget);
    EXPECT_EQ(validate_table(below, options).verdict, ValidationVerdict::conforms);
  }
}

}  // namespace
}  // namespace pecheck::validate
