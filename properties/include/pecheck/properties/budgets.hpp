// Accuracy budgets as data: for each kind of subject and format, the largest
// ULP error allowed and where that number comes from. Printed beside the
// measured value in every report, even when it passes.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "pecheck/format.hpp"

namespace pecheck::properties {

struct UlpBudget {
  std::string_view subject;  // "fast", "reference", "third-party"
  FormatId format;
  double max_ulp;
  std::string_view source;   // the derivation or the measurement, in one sentence
};

const std::vector<UlpBudget>& ulp_budgets();
// The budget for a subject kind and format; "third-party" when the kind is unknown.
const UlpBudget& ulp_budget(std::string_view subject, FormatId format);

}  // namespace pecheck::properties
