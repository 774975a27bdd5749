// scaling-variance/recovery-sweep and token-recoverability on the fast
// subject: the figures the report's finding (a) reads, as claims that can fail.
#include <gtest/gtest.h>

#include "check_runs.hpp"
#include "pecheck/properties/check_ids.hpp"

namespace pecheck::properties {
namespace {

const Statistic* at_scale(const Outcome& outcome, Quantity quantity, double exponent) {
  for (const Statistic& s : outcome.statistics) {
    if (s.key.quantity == quantity && s.key.scale_exponent == exponent) return &s;
  }
  return nullptr;
}

TEST(RecoverySweep, theJointDecoderRecoversBothWhileTheNaiveOnesTradeTokenForPosition) {
  const Outcome outcome = run_and_print(check_ids::recovery_sweep, *fast_subject());
  ASSERT_EQ(outcome.verdict, Verdict::held) << outcome.message;
  for (double a = 0.0; a <= 1.0; a += 0.125) {
    for (Quantity joint : {Quantity::recovered_token_joint, Quantity::recovered_position_joint}) {
      const Statistic* s = at_scale(outcome, joint, a);
      ASSERT_NE(s, nullptr) << "a = " << a;
      EXPECT_EQ(s->value, 1.0) << s->name;
    }
    const Statistic* pairs = at_scale(outcome, Quantity::joint_pairs_scored, a);
    ASSERT_NE(pairs, nullptr);
    // The bound's point: the exact search scores a small share of the V x P pairs.
    EXPECT_LT(pairs->value, 0.05) << pairs->name;
  }
  const Statistic* token_1 = at_scale(outcome, Quantity::recovered_token_naive, 0.0);
  const Statistic* token_root = at_scale(outcome, Quantity::recovered_token_naive, 0.5);
  const Statistic* position_1 = at_scale(outcome, Quantity::recovered_position_naive, 0.0);
  const Statistic* position_d = at_scale(outcome, Quantity::recovered_position_naive, 1.0);
  ASSERT_TRUE(token_1 && token_root && position_1 && position_d);
  // Each naive decoder reads its own term when it dominates and loses it when it does not.
  EXPECT_LT(token_1->value, 0.5);
  EXPECT_GT(token_root->value, 0.99);
  EXPECT_GT(position_1->value, 0.99);
  EXPECT_LT(position_d->value, 0.5);
  ASSERT_TRUE(token_1->spread);
  EXPECT_GE(token_1->spread->draws, 2);
  EXPECT_EQ(token_1->key.vocabulary, 4096);
}

TEST(RecoverySweep, theUnscaledRecoveryRateIsAMeanOverDrawsWithItsSpread) {
  const Outcome outcome = run_and_print(check_ids::token_recoverability, *fast_subject());
  ASSERT_EQ(outcome.verdict, Verdict::held) << outcome.message;
  int spread = 0;
  for (const Statistic& s : outcome.statistics) {
    if (s.key.quantity != Quantity::recovered_position_unknown_unscaled) continue;
    ASSERT_TRUE(s.spread) << s.name;
    EXPECT_GE(s.spread->draws, 5) << s.name;
    EXPECT_GT(s.spread->standard_deviation, 0.0) << s.name;  // independent draws differ
    EXPECT_EQ(s.key.dim, 512);
    ++spread;
  }
  EXPECT_GE(spread, 1);
}

}  // namespace
}  // namespace pecheck::properties
