// Every check can fail: each fault-injected subject is caught by the checks
// that name it, while the correct fast subject passes the same checks.
#include <gtest/gtest.h>

#include <set>

#include "fault_cases.hpp"
#include "pecheck/properties/faulty_subjects.hpp"
#include "pecheck/properties/registry.hpp"

namespace pecheck::properties {
namespace {

// The default RunConfig (sweeps neither quick nor full) for both subjects.
FastSubjectOutcomes& fast() {
  static FastSubjectOutcomes outcomes{RunConfig{}};
  return outcomes;
}

class FaultIsCaught : public ::testing::TestWithParam<FaultAndCheck> {};

TEST_P(FaultIsCaught, byTheCheckThatNamesItWhileTheFastSubjectPasses) {
  expect_caught_while_the_fast_subject_holds(GetParam(), fast());
}

INSTANTIATE_TEST_SUITE_P(Faults, FaultIsCaught, ::testing::ValuesIn(fault_check_pairs(faults())), fault_case_name);

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
