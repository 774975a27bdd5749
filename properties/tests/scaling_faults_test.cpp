// Every embedding-operation fault is caught by the checks that name it, and
// the correct fast subject passes the same checks.
#include <gtest/gtest.h>

#include "fault_cases.hpp"
#include "pecheck/properties/faulty_subjects.hpp"
#include "pecheck/properties/registry.hpp"

namespace pecheck::properties {
namespace {

// Quick sweeps for both subjects: the faults are caught by orders of magnitude,
// and the correct subject is held to the same configuration.
RunConfig quick() {
  RunConfig config;
  config.quick = true;
  return config;
}

FastSubjectOutcomes& fast() {
  static FastSubjectOutcomes outcomes{quick()};
  return outcomes;
}

class ScalingFaultIsCaught : public ::testing::TestWithParam<FaultAndCheck> {};

TEST_P(ScalingFaultIsCaught, byTheCheckThatNamesItWhileTheFastSubjectPasses) {
  expect_caught_while_the_fast_subject_holds(GetParam(), fast());
}

INSTANTIATE_TEST_SUITE_P(ScalingFaults, ScalingFaultIsCaught, ::testing::ValuesIn(fault_check_pairs(scaling_faults())),
                         fault_case_name);

// Encoding faults (faulty_subjects.hpp) that the add-vs-concat family's
// column-energy check catches too: its per-column variances are held to the reference's.
TEST(EncodingFaults, areCaughtByTheColumnEnergyCheck) {
  for (const auto& make : {make_random_init_subject, make_sin_cos_swapped_subject, make_float16_storage_subject}) {
    const std::unique_ptr<Subject> faulty = make(fast_subject());
    const Outcome caught = run_and_print("add-vs-concat/column-energy", *faulty, fast().config());
    EXPECT_EQ(caught.verdict, Verdict::failed) << faulty->name();
  }
  EXPECT_EQ(fast().of("add-vs-concat/column-energy").verdict, Verdict::held);
}

TEST(ScalingFaults, everyNamedCheckExistsAndEveryFaultNamesOne) {
  for (const Fault& fault : scaling_faults()) {
    EXPECT_FALSE(fault.caught_by.empty()) << fault.name;
    for (const std::string& id : fault.caught_by) EXPECT_NE(find_check(id), nullptr) << fault.name << ": " << id;
  }
}

}  // namespace
}  // namespace pecheck::properties
