// The add-vs-concat family on pecheck's fast subject: every check holds, with
// its statistics printed beside their bounds.
#include <gtest/gtest.h>

#include <cmath>

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

// The encoding's subspace grows with the context, and a random token's
// energy inside it follows: isotropic, its expected share is k/d, so the mean
// over draws lies within 5 standard errors of it (see scaling_variance_test).
TEST(AddVsConcatFindings, aRandomTokensShareOfTheEncodingsSubspaceIsKOverDAndGrowsWithContext) {
  const Outcome outcome = run_and_print(check_ids::encoding_subspace, *fast_subject());
  double previous_k = 0.0;
  for (std::int64_t positions : {512, 2048, 8192}) {
    const StatisticKey share{Quantity::subspace_token_share, FormatId::float32, 512, positions};
    const StatisticKey k{Quantity::subspace_dimension, FormatId::float32, 512, positions};
    const Statistic& s = require_statistic(outcome, share);
    ASSERT_TRUE(s.spread && s.closed_form);
    EXPECT_DOUBLE_EQ(*s.closed_form, require_statistic(outcome, k).value / 512.0);
    EXPECT_NEAR(s.value, *s.closed_form,
                5 * s.spread->standard_deviation / std::sqrt(static_cast<double>(s.spread->draws)));
    EXPECT_GT(require_statistic(outcome, k).value, previous_k) << positions;
    previous_k = require_statistic(outcome, k).value;
  }
}

}  // namespace
}  // namespace pecheck::properties
