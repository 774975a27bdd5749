// Accuracy budgets as data: for each kind of subject and format, the largest
// ULP error allowed and where that number comes from. Printed beside the
// measured value in every report, even when it passes.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "pecheck/format.hpp"

namespace pecheck::accuracy {

// Whose accuracy a budget states: pecheck's fast path, its correctly rounded
// reference, or anyone else's implementation.
enum class BudgetKind { fast, reference, third_party };

// The kind for a subject's name: "fast" and "reference" are pecheck's own
// subjects; every other name is a third party.
BudgetKind budget_kind_of(std::string_view subject_name);
std::string_view to_string(BudgetKind kind);  // "fast", "reference", "third-party"

struct UlpBudget {
  BudgetKind kind;
  FormatId format;
  double max_ulp;
  std::string_view source;   // the derivation or the measurement, in one sentence
};

const std::vector<UlpBudget>& ulp_budgets();
// The budget for a kind of subject and a format.
const UlpBudget& ulp_budget(BudgetKind kind, FormatId format);

}  // namespace pecheck::accuracy
