// The add-vs-concat family on pecheck's fast subject: every check holds, with
// its statistics printed beside their bounds.
#include <gtest/gtest.h>

#include "pecheck/properties/registry.hpp"
#include "scaling_outcomes.hpp"

namespace pecheck::properties {
namespace {

const Subject& fast() {
  static const std::unique_ptr<Subject> subject = make_fast_subject();
  return *subject;
}

class AddVsConcatCheck : public ::testing::TestWithParam<std::string> {};

TEST_P(AddVsConcatCheck, holdsOnTheFastSubject) {
  const Outcome outcome = run_and_print(GetParam(), fast());
  EXPECT_EQ(outcome.verdict, Verdict::held) << outcome_text(outcome);
  EXPECT_GT(outcome.cases, 0);
}

std::vector<std::string> family_ids() {
  std::vector<std::string> ids;
  for (const Check& check : all_checks()) {
    if (check.family == Family::add_vs_concat) ids.push_back(check.id);
  }
  return ids;
}

INSTANTIATE_TEST_SUITE_P(AddVsConcat, AddVsConcatCheck, ::testing::ValuesIn(family_ids()),
                         [](const ::testing::TestParamInfo<std::string>& param_info) { return test_name(param_info.param); });

TEST(AddVsConcat, hasAtLeastFiveChecks) { EXPECT_GE(family_ids().size(), 5u); }

TEST(AddVsConcatFindings, randomTokensFillEveryDimensionSoEverySplitIsExcluded) {
  const Outcome outcome = run_and_print("add-vs-concat/strictness", fast());
  const Statistic* tokens = find_statistic(outcome, "float32: rank of token differences");
  ASSERT_NE(tokens, nullptr);
  EXPECT_EQ(tokens->value, 128.0);
}

}  // namespace
}  // namespace pecheck::properties
