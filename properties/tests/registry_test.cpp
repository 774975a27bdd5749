// Every registered check on pecheck's own fast implementation and on the
// reference: each must hold, or say why it does not apply. The outcome is
// printed either way, so the test log carries the measured figures.
#include <gtest/gtest.h>

#include <algorithm>
#include <iostream>
#include <set>

#include "outcome_printing.hpp"
#include "pecheck/properties/check_ids.hpp"
#include "pecheck/properties/registry.hpp"
#include "pecheck/reference/reference_subject.hpp"

namespace pecheck::properties {
namespace {

std::vector<std::string> check_ids() {
  std::vector<std::string> ids;
  for (const Check& check : all_checks()) ids.push_back(check.id);
  return ids;
}

void expect_held(const Check& check, const Outcome& outcome) {
  std::cout << outcome_text(outcome);
  if (outcome.verdict == Verdict::not_applicable) {
    EXPECT_FALSE(outcome.message.empty()) << "a check that does not apply must say why";
    return;
  }
  // An observation is never "held": it ran and is "info".
  EXPECT_EQ(outcome.verdict, check.role == CheckRole::observation ? Verdict::info : Verdict::held)
      << outcome_text(outcome);
}

class EveryCheck : public ::testing::TestWithParam<std::string> {};

TEST_P(EveryCheck, holdsOnTheFastSubject) {
  const Check* check = find_check(GetParam());
  ASSERT_NE(check, nullptr);
  const std::unique_ptr<Subject> subject = make_fast_subject();
  expect_held(*check, run_check(*check, *subject, RunConfig{}));
}

// The reference is correctly rounded, so every claim must hold on it too (a
// check failing here is a wrong check). It costs microseconds per entry:
// quick sweeps and 20 cases per property keep this affordable.
TEST_P(EveryCheck, holdsOnTheReference) {
  const Check* check = find_check(GetParam());
  ASSERT_NE(check, nullptr);
  const std::unique_ptr<Subject> subject = reference::make_reference_subject();
  RunConfig config;
  config.quick = true;
  config.max_cases = 20;
  expect_held(*check, run_check(*check, *subject, config));
}

INSTANTIATE_TEST_SUITE_P(Registry, EveryCheck, ::testing::ValuesIn(check_ids()), check_id_test_name);

// A claim tried on no case, or on fewer than the minimum, shows nothing: it
// is "not run", which no runner counts as a pass.
TEST(Registry, aPropertyRunOnNoCasesIsNotRunNeverHeld) {
  const Check* check = find_check(check_ids::unit_interval);
  ASSERT_NE(check, nullptr);
  const std::unique_ptr<Subject> subject = make_fast_subject();
  RunConfig none;
  none.max_cases = 0;
  none.honour_rc_params = false;
  const Outcome outcome = run_check(*check, *subject, none);
  EXPECT_EQ(outcome.verdict, Verdict::not_run) << outcome_text(outcome);
  EXPECT_EQ(outcome.cases, 0);
  EXPECT_TRUE(spoils_a_pass(outcome.verdict));
}

TEST(Registry, aPropertyRunOnFewerCasesThanItsMinimumIsNotRun) {
  const Check* check = find_check(check_ids::unit_interval);
  ASSERT_NE(check, nullptr);
  const std::unique_ptr<Subject> subject = make_fast_subject();
  RunConfig few;
  few.max_cases = 3;
  few.min_cases = 4;
  few.honour_rc_params = false;
  EXPECT_EQ(run_check(*check, *subject, few).verdict, Verdict::not_run);
  few.min_cases = 3;
  EXPECT_EQ(run_check(*check, *subject, few).verdict, Verdict::held);
}

TEST(Registry, idsAreUniqueAndEveryCheckHasAClaimAndASource) {
  std::set<std::string> seen;
  for (const Check& check : all_checks()) {
    EXPECT_TRUE(seen.insert(check.id).second) << "duplicate id " << check.id;
    EXPECT_EQ(check.id.rfind(std::string(to_string(check.family)) + "/", 0), 0u) << check.id;
    EXPECT_FALSE(check.claim.empty()) << check.id;
    EXPECT_FALSE(check.source.empty()) << check.id;
    EXPECT_TRUE(static_cast<bool>(check.run)) << check.id;
  }
}

// GoogleTest names carry the claim: each check's test name is a valid
// GoogleTest identifier, says its claim in short, and no two are alike.
TEST(Registry, everyCheckHasAShortClaimMakingAUniqueTestName) {
  const auto is_alnum = [](char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
  };
  std::set<std::string> names;
  for (const Check& check : all_checks()) {
    ASSERT_FALSE(check.short_claim.empty()) << check.id;
    EXPECT_TRUE(check.short_claim.front() >= 'a' && check.short_claim.front() <= 'z')
        << check.id << ": the short claim is lowerCamel, \"" << check.short_claim << "\"";
    EXPECT_TRUE(std::all_of(check.short_claim.begin(), check.short_claim.end(), is_alnum))
        << check.id << ": the short claim holds letters and digits only, \"" << check.short_claim << "\"";
    const std::string name = check_test_name(check);
    EXPECT_TRUE(std::all_of(name.begin(), name.end(), [&](char c) { return is_alnum(c) || c == '_'; })) << name;
    EXPECT_TRUE(names.insert(name).second) << "two checks are named " << name;
  }
  EXPECT_EQ(check_test_name(*find_check(check_ids::unit_interval)), "unit_interval_everyValueLiesInMinusOneToOne");
}

// A check's role is derived from the faults it catches, so the two agree.
TEST(Registry, aCheckIsAnObservationExactlyWhenItCatchesNoFault) {
  for (const Check& check : all_checks()) {
    EXPECT_EQ(check.role, check.catches.empty() ? CheckRole::observation : CheckRole::claim) << check.id;
  }
}

// Reports and tests name checks through check_ids.hpp: a constant no check
// carries would find nothing, and a check without one would be named by a literal.
TEST(Registry, everyCheckIdIsSpelledOnceInCheckIds) {
  std::set<std::string> registered;
  for (const Check& check : all_checks()) registered.insert(check.id);
  std::set<std::string> spelled;
  for (std::string_view id : check_ids::all) {
    EXPECT_TRUE(spelled.insert(std::string(id)).second) << "check_ids spells " << id << " twice";
  }
  EXPECT_EQ(spelled, registered);
}

}  // namespace
}  // namespace pecheck::properties
