#include "pecheck/properties/property_runner.hpp"

#include <gtest/gtest.h>
#include <rapidcheck.h>

namespace pecheck::properties {
namespace {

RunConfig quiet_config() {
  RunConfig config;
  config.honour_rc_params = false;  // the test's outcome must not depend on the caller's RC_PARAMS
  return config;
}

// A property whose every case is discarded tried nothing: RapidCheck gives
// up, and that is a failure, never "held".
TEST(PropertyRunner, aPropertyThatGivesUpFails) {
  const Outcome outcome = run_property("test/always-discards", quiet_config(), [](int x) {
    RC_PRE(x != x);
  });
  EXPECT_EQ(outcome.verdict, Verdict::failed);
  EXPECT_EQ(outcome.cases, 0);
  EXPECT_NE(outcome.message.find("gave up"), std::string::npos) << outcome.message;
}

TEST(PropertyRunner, aPropertyThatHoldsHoldsOnItsCases) {
  const RunConfig config = quiet_config();
  const Outcome outcome = run_property("test/holds", config, [](int x) { RC_ASSERT(x == x); });
  EXPECT_EQ(outcome.verdict, Verdict::held);
  EXPECT_EQ(outcome.cases, config.max_cases);
}

TEST(PropertyRunner, aFailingPropertyFailsWithAReproduceString) {
  const Outcome outcome = run_property("test/fails", quiet_config(), [](int x) { RC_ASSERT(x < 10); });
  EXPECT_EQ(outcome.verdict, Verdict::failed);
  EXPECT_FALSE(outcome.reproduce.empty());
}

}  // namespace
}  // namespace pecheck::properties
