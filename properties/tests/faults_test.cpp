// Every check can fail: each fault-injected subject is caught by the checks
// that name it, while the correct fast subject passes the same checks.
#include <gtest/gtest.h>

#include <iostream>
#include <map>
#include <set>

#include "outcome_printing.hpp"
#include "pecheck/properties/faulty_subjects.hpp"
#include "pecheck/properties/registry.hpp"

namespace pecheck::properties {
namespace {

struct FaultAndCheck {
  const Fault* fault;
  std::string check_id;
};

std::vector<FaultAndCheck> pairs() {
  std::vector<FaultAndCheck> all;
  for (const Fault& fault : faults()) {
    for (const std::string& id : fault.caught_by) all.push_back({&fault, id});
  }
  return all;
}

std::shared_ptr<const Subject> fast_subject() {
  static const std::shared_ptr<const Subject> subject = make_fast_subject();
  return subject;
}

// The fast subject's outcome per check, computed once.
const Outcome& fast_outcome(const Check& check) {
  static std::map<std::string, Outcome> outcomes;
  auto found = outcomes.find(check.id);
  if (found == outcomes.end()) found = outcomes.emplace(check.id, run_check(check, *fast_subject(), RunConfig{})).first;
  return found->second;
}

class FaultIsCaught : public ::testing::TestWithParam<FaultAndCheck> {};

TEST_P(FaultIsCaught, byTheCheckThatNamesItWhileTheFastSubjectPasses) {
  const auto& [fault, id] = GetParam();
  const Check* check = find_check(id);
  ASSERT_NE(check, nullptr) << "fault " << fault->name << " names an unknown check " << id;
  const std::unique_ptr<Subject> faulty = fault->make(fast_subject());
  const Outcome caught = run_check(*check, *faulty, RunConfig{});
  std::cout << outcome_text(caught);
  EXPECT_EQ(caught.verdict, Verdict::failed) << fault->name << " (" << fault->description << ") was not caught by "
                                             << id << "\n" << outcome_text(caught);
  const Outcome& correct = fast_outcome(*check);
  EXPECT_EQ(correct.verdict, Verdict::held) << outcome_text(correct);
}

INSTANTIATE_TEST_SUITE_P(Faults, FaultIsCaught, ::testing::ValuesIn(pairs()),
                         [](const ::testing::TestParamInfo<FaultAndCheck>& param_info) {
                           return test_name(param_info.param.fault->name + "_" + param_info.param.check_id);
                         });

TEST(Faults, everyEncodingBoundsAndConformanceCheckIsNamedByAFault) {
  std::set<std::string> named;
  for (const Fault& fault : faults()) named.insert(fault.caught_by.begin(), fault.caught_by.end());
  for (const Check& check : all_checks()) {
    if (check.family == Family::encoding_bounds || check.family == Family::conformance) {
      EXPECT_TRUE(named.count(check.id) == 1) << check.id << " is not shown to fail on any fault";
    }
  }
}

}  // namespace
}  // namespace pecheck::properties
