// Every embedding-operation fault is caught by the checks that name it, and
// the correct fast subject passes the same checks.
#include <gtest/gtest.h>

#include <map>

#include "pecheck/properties/faulty_subjects.hpp"
#include "pecheck/properties/registry.hpp"
#include "scaling_outcomes.hpp"

namespace pecheck::properties {
namespace {

struct FaultAndCheck {
  const Fault* fault;
  std::string check_id;
};

std::vector<FaultAndCheck> pairs() {
  std::vector<FaultAndCheck> all;
  for (const Fault& fault : scaling_faults()) {
    for (const std::string& id : fault.caught_by) all.push_back({&fault, id});
  }
  return all;
}

// Quick sweeps for both subjects: the faults are caught by orders of magnitude,
// and the correct subject is held to the same configuration.
RunConfig quick() {
  RunConfig config;
  config.quick = true;
  return config;
}

std::shared_ptr<const Subject> fast_subject() {
  static const std::shared_ptr<const Subject> subject = make_fast_subject();
  return subject;
}

const Outcome& fast_outcome(const std::string& id) {
  static std::map<std::string, Outcome> outcomes;
  auto found = outcomes.find(id);
  if (found == outcomes.end()) found = outcomes.emplace(id, run_and_print(id, *fast_subject(), quick())).first;
  return found->second;
}

class ScalingFaultIsCaught : public ::testing::TestWithParam<FaultAndCheck> {};

TEST_P(ScalingFaultIsCaught, byTheCheckThatNamesItWhileTheFastSubjectPasses) {
  const auto& [fault, id] = GetParam();
  const std::unique_ptr<Subject> faulty = fault->make(fast_subject());
  const Outcome caught = run_and_print(id, *faulty, quick());
  EXPECT_EQ(caught.verdict, Verdict::failed) << fault->name << " (" << fault->description << ") was not caught by "
                                             << id;
  EXPECT_FALSE(caught.message.empty());
  EXPECT_EQ(fast_outcome(id).verdict, Verdict::held) << outcome_text(fast_outcome(id));
}

INSTANTIATE_TEST_SUITE_P(ScalingFaults, ScalingFaultIsCaught, ::testing::ValuesIn(pairs()),
                         [](const ::testing::TestParamInfo<FaultAndCheck>& param_info) {
                           return test_name(param_info.param.fault->name + "_" + param_info.param.check_id);
                         });

// Encoding faults (faulty_subjects.hpp) that the add-vs-concat family's
// column-energy check catches too: its per-column variances are held to the reference's.
TEST(EncodingFaults, areCaughtByTheColumnEnergyCheck) {
  for (const auto& make : {make_random_init_subject, make_sin_cos_swapped_subject, make_float16_storage_subject}) {
    const std::unique_ptr<Subject> faulty = make(fast_subject());
    const Outcome caught = run_and_print("add-vs-concat/column-energy", *faulty, quick());
    EXPECT_EQ(caught.verdict, Verdict::failed) << faulty->name();
  }
  EXPECT_EQ(fast_outcome("add-vs-concat/column-energy").verdict, Verdict::held);
}

TEST(ScalingFaults, everyNamedCheckExistsAndEveryFaultNamesOne) {
  for (const Fault& fault : scaling_faults()) {
    EXPECT_FALSE(fault.caught_by.empty()) << fault.name;
    for (const std::string& id : fault.caught_by) EXPECT_NE(find_check(id), nullptr) << fault.name << ": " << id;
  }
}

}  // namespace
}  // namespace pecheck::properties
