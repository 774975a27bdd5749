// The add-vs-concat family on pecheck's fast subject: every check holds, with
// its statistics printed beside their bounds.
#include <gtest/gtest.h>

#include "check_runs.hpp"
#include "pecheck/properties/check_ids.hpp"
#include "pecheck/properties/registry.hpp"

namespace pecheck::properties {
namespace {

class AddVsConcatCheck : public ::testing::TestWithParam<std::string> {};

TEST_P(AddVsConcatCheck, holdsOnTheFastSubject) { expect_holds_on_the_fast_subject(GetParam()); }

INSTANTIATE_TEST_SUITE_P(AddVsConcat, AddVsConcatCheck, ::testing::ValuesIn(family_check_ids(Family::add_vs_concat)),
                         check_id_test_name);

TEST(AddVsConcat, hasAtLeastFiveChecks) { EXPECT_GE(family_check_ids(Family::add_vs_concat).size(), 5u); }

TEST(AddVsConcatFindings, randomTokensFillEveryDimensionSoEverySplitIsExcluded) {
  const Outcome outcome = run_and_print(check_ids::strictness, *fast_subject());
  // The default run's width (not --quick) is d = 128: every token difference is independent.
  EXPECT_EQ(require_statistic(outcome, at_width(Quantity::token_difference_rank, FormatId::float32, 128)).value, 128.0);
}

}  // namespace
}  // namespace pecheck::properties
