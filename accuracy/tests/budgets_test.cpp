// The budget table covers every kind of subject in every format, and a
// subject's name picks its kind.
#include <gtest/gtest.h>

#include "pecheck/accuracy/budgets.hpp"

namespace pecheck::accuracy {
namespace {

TEST(UlpBudgets, everyKindHasABudgetWithItsSourceInEveryFormat) {
  for (BudgetKind kind : {BudgetKind::fast, BudgetKind::reference, BudgetKind::third_party}) {
    for (FormatId format : {FormatId::float64, FormatId::float32, FormatId::float16, FormatId::bfloat16}) {
      const UlpBudget& budget = ulp_budget(kind, format);
      EXPECT_EQ(budget.kind, kind);
      EXPECT_EQ(budget.format, format);
      EXPECT_GE(budget.max_ulp, 0.5) << "no budget can be below correct rounding";
      EXPECT_FALSE(budget.source.empty());
    }
  }
  EXPECT_EQ(ulp_budgets().size(), 12u);  // one row each, no duplicates
}

TEST(UlpBudgets, theReferenceIsHeldToCorrectRounding) {
  for (FormatId format : {FormatId::float64, FormatId::float32, FormatId::float16, FormatId::bfloat16}) {
    EXPECT_EQ(ulp_budget(BudgetKind::reference, format).max_ulp, 0.5);
  }
}

TEST(UlpBudgets, aSubjectsNamePicksItsKind) {
  EXPECT_EQ(budget_kind_of("fast"), BudgetKind::fast);
  EXPECT_EQ(budget_kind_of("reference"), BudgetKind::reference);
  EXPECT_EQ(budget_kind_of("table.npy"), BudgetKind::third_party);
}

}  // namespace
}  // namespace pecheck::accuracy
