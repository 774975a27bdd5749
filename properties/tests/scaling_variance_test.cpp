// The scaling-variance family on pecheck's fast subject: every check holds,
// and its statistics (printed beside their bounds) say what the report's
// findings will say.
#include <gtest/gtest.h>

#include <cmath>

#include "check_runs.hpp"
#include "pecheck/properties/registry.hpp"

namespace pecheck::properties {
namespace {

class ScalingVarianceCheck : public ::testing::TestWithParam<std::string> {};

TEST_P(ScalingVarianceCheck, holdsOnTheFastSubject) { expect_holds_on_the_fast_subject(GetParam()); }

INSTANTIATE_TEST_SUITE_P(ScalingVariance, ScalingVarianceCheck,
                         ::testing::ValuesIn(family_check_ids(Family::scaling_variance)), check_id_test_name);

TEST(ScalingVariance, hasAtLeastFiveChecks) { EXPECT_GE(family_check_ids(Family::scaling_variance).size(), 5u); }

// The findings, stated as the figures the report prints.
TEST(ScalingVarianceFindings, bfloat16RoundsGemmasScaleTo55Point5AndInflatesTheVarianceByAQuarterPercent) {
  const Outcome scale = run_and_print("scaling-variance/scale-factor-rounding", *fast_subject());
  const Statistic* gemma = find_statistic(scale, "bfloat16: sqrt(3072)");
  ASSERT_NE(gemma, nullptr);
  EXPECT_EQ(gemma->value, 55.5);
  const Outcome variance = run_and_print("scaling-variance/unit-variance-closed-form", *fast_subject());
  const Statistic* inflated = find_statistic(variance, "bfloat16: Var(s*E) at d = 3072");
  ASSERT_NE(inflated, nullptr);
  EXPECT_DOUBLE_EQ(inflated->value, 55.5 * 55.5 / 3072.0);  // 1.00268...
}

TEST(ScalingVarianceFindings, theEnergyRatioIsTwoScaledAndTwoOverDUnscaled) {
  const Outcome outcome = run_and_print("scaling-variance/energy-ratio", *fast_subject());
  const Statistic* scaled = find_statistic(outcome, "float32: energy ratio E||s*e||^2");
  const Statistic* unscaled = find_statistic(outcome, "float32: energy ratio E||e||^2");
  ASSERT_NE(scaled, nullptr);
  ASSERT_NE(unscaled, nullptr);
  // Within the check's own 1e-9 intervals, which are a few percent wide.
  EXPECT_NEAR(scaled->value, 2.0, 0.05);
  EXPECT_NEAR(unscaled->value * 512.0, 2.0, 0.05);
}

TEST(ScalingVarianceFindings, measurementsAreDeterministicForASeedAndDifferAcrossSeeds) {
  RunConfig config;
  config.honour_rc_params = false;
  config.quick = true;
  const Outcome first = run_and_print("scaling-variance/unit-variance-sampled", *fast_subject(), config);
  const Outcome again = run_and_print("scaling-variance/unit-variance-sampled", *fast_subject(), config);
  ASSERT_EQ(first.statistics.size(), again.statistics.size());
  for (std::size_t i = 0; i < first.statistics.size(); ++i) {
    EXPECT_EQ(first.statistics[i].value, again.statistics[i].value) << first.statistics[i].name;
  }
  config.seed += 1;
  const Outcome other = run_and_print("scaling-variance/unit-variance-sampled", *fast_subject(), config);
  EXPECT_EQ(other.verdict, Verdict::held);
  EXPECT_NE(other.statistics.front().value, first.statistics.front().value);
}

}  // namespace
}  // namespace pecheck::properties
