// The scaling-variance family on pecheck's fast subject: every check holds,
// and its statistics (printed beside their bounds) say what the report's
// findings will say.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <string_view>
#include <vector>

#include "check_runs.hpp"
#include "pecheck/properties/check_ids.hpp"
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
  const Outcome scale = run_and_print(check_ids::scale_factor_rounding, *fast_subject());
  EXPECT_EQ(require_statistic(scale, per_format(Quantity::scale_at_gemma_width, FormatId::bfloat16)).value, 55.5);
  const Outcome variance = run_and_print(check_ids::unit_variance_closed_form, *fast_subject());
  const Statistic& inflated =
      require_statistic(variance, at_width(Quantity::closed_form_variance, FormatId::bfloat16, 3072));
  EXPECT_DOUBLE_EQ(inflated.value, 55.5 * 55.5 / 3072.0);  // 1.00268...
}

TEST(ScalingVarianceFindings, theEnergyRatioIsTwoScaledAndTwoOverDUnscaled) {
  const Outcome outcome = run_and_print(check_ids::energy_ratio, *fast_subject());
  const Statistic& scaled = require_statistic(outcome, at_width(Quantity::energy_ratio_scaled, FormatId::float32, 512));
  const Statistic& unscaled =
      require_statistic(outcome, at_width(Quantity::energy_ratio_unscaled, FormatId::float32, 512));
  // Within the check's own 1e-9 intervals, which are a few percent wide.
  EXPECT_NEAR(scaled.value, 2.0, 0.05);
  EXPECT_NEAR(unscaled.value * 512.0, 2.0, 0.05);
}

TEST(ScalingVarianceFindings, measurementsAreDeterministicForASeedAndDifferAcrossSeeds) {
  RunConfig config;
  config.honour_rc_params = false;
  config.quick = true;
  const Outcome first = run_and_print(check_ids::unit_variance_sampled, *fast_subject(), config);
  const Outcome again = run_and_print(check_ids::unit_variance_sampled, *fast_subject(), config);
  ASSERT_EQ(first.statistics.size(), again.statistics.size());
  for (std::size_t i = 0; i < first.statistics.size(); ++i) {
    EXPECT_EQ(first.statistics[i].value, again.statistics[i].value) << first.statistics[i].name;
  }
  config.seed += 1;
  const Outcome other = run_and_print(check_ids::unit_variance_sampled, *fast_subject(), config);
  EXPECT_EQ(other.verdict, Verdict::held);
  EXPECT_NE(other.statistics.front().value, first.statistics.front().value);
}

// The observations' means over draws against their closed forms. Each mean
// of n independent draws has standard error sd / sqrt(n); for n = 30 it is
// close to normal, so a correct closed form lies within 5 standard errors but
// for probability ~6e-7 per statistic. The shares are ratios (the mean of a
// ratio is not the ratio of means), so only the variances are held here,
// whose closed forms are exact expectations.
void expect_means_near_closed_forms(std::string_view id, const std::vector<Quantity>& quantities) {
  const Outcome outcome = run_and_print(id, *fast_subject());
  int held = 0;
  for (const Statistic& s : outcome.statistics) {
    if (std::find(quantities.begin(), quantities.end(), s.key.quantity) == quantities.end()) continue;
    ASSERT_TRUE(s.spread && s.closed_form) << s.name;
    ASSERT_GE(s.spread->draws, 10) << s.name;
    const double standard_error = s.spread->standard_deviation / std::sqrt(static_cast<double>(s.spread->draws));
    EXPECT_NEAR(s.value, *s.closed_form, 5 * standard_error) << s.name;
    ++held;
  }
  EXPECT_GE(held, static_cast<int>(quantities.size())) << id;
}

TEST(ScalingVarianceFindings, theFirstLayerLogitVarianceIsItsClosedFormOverDraws) {
  expect_means_near_closed_forms(
      check_ids::logit_decomposition,
      {Quantity::first_layer_logit_variance_scaled, Quantity::first_layer_logit_variance_unscaled,
       Quantity::pre_ln_logit_variance_scaled, Quantity::pre_ln_logit_variance_unscaled,
       // the ratio of the means, whose expectation is the closed form's ratio up to O(1/n)
       Quantity::first_layer_both_over_neither,
       // the sweep over s = d^a at d = 512, from s = 1 to s = d
       Quantity::logit_variance_at_scale});
}

// The statistics `validate --vocabulary` prints, on drawn tables: the energy
// ratio's and the subspace share's closed forms are exact expectations
// (E ||s e||^2 = s^2 sigma^2 d; E ||U_k^T e||^2 / ||e||^2 = k/d for an isotropic e).
TEST(ScalingVarianceFindings, aDrawnVocabularysEnergyRatioAndSubspaceShareAreTheirClosedForms) {
  expect_means_near_closed_forms(check_ids::vocabulary_statistics,
                                 {Quantity::vocabulary_energy_ratio, Quantity::vocabulary_subspace_share});
}

TEST(ScalingVarianceFindings, eachInitialisationsScaledVarianceIsDSigmaSquared) {
  expect_means_near_closed_forms(check_ids::initialisation_variance, {Quantity::init_scaled_variance});
}

}  // namespace
}  // namespace pecheck::properties
