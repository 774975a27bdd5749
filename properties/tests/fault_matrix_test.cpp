// The fault matrix, proven cell by cell: each fault-injected subject fails
// every check whose definition lists it, while the correct fast subject
// passes the same checks; and every check either catches a fault (a claim)
// or is an observation, shown as "info", never as "held".
#include <gtest/gtest.h>

#include <algorithm>
#include <set>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "fault_cases.hpp"
#include "pecheck/properties/faulty_subjects.hpp"
#include "pecheck/properties/registry.hpp"

namespace pecheck::properties {
namespace {

// Quick sweeps and the default case count, for both subjects: `pecheck
// report --quick` must catch every fault too, and the correct subject is held
// to the same configuration.
RunConfig matrix_config() {
  RunConfig config;
  config.quick = true;
  return config;
}

FastSubjectOutcomes& fast() {
  static FastSubjectOutcomes outcomes{matrix_config()};
  return outcomes;
}

class FaultMatrix : public ::testing::TestWithParam<FaultAndCheck> {};

TEST_P(FaultMatrix, theFaultFailsTheCheckWhileTheFastSubjectPasses) {
  expect_caught_while_the_fast_subject_holds(GetParam(), fast());
}

INSTANTIATE_TEST_SUITE_P(Cells, FaultMatrix, ::testing::ValuesIn(fault_check_pairs(fault_matrix())), fault_case_name);

TEST(FaultMatrix, everyClaimIsNamedByAFaultAndNoObservationIs) {
  for (const Check& check : all_checks()) {
    const std::vector<std::string> caught = faults_caught_by(check.id);
    if (check.role == CheckRole::claim) {
      EXPECT_FALSE(caught.empty()) << check.id << " is a claim no fault is shown to fail: make it an observation";
    } else {
      EXPECT_TRUE(caught.empty()) << check.id << " is an observation, yet the matrix says it catches " << caught.front();
    }
  }
}

// The matrix is the checks' `catches` lists inverted, no cell more or less,
// and every fault a check lists is one the fault list holds, once.
TEST(FaultMatrix, isTheChecksCatchesListsInverted) {
  ASSERT_NO_THROW(fault_matrix());
  std::set<std::pair<std::string, std::string>> listed;
  for (const Check& check : all_checks()) {
    for (std::string_view name : check.catches) {
      EXPECT_TRUE(listed.insert({std::string(name), check.id}).second) << check.id << " lists " << name << " twice";
    }
  }
  std::set<std::pair<std::string, std::string>> cells;
  for (const Fault& fault : fault_matrix()) {
    for (const std::string& id : fault.caught_by) cells.insert({std::string(fault.name), id});
  }
  EXPECT_EQ(cells, listed);
}

TEST(FaultMatrix, everyFaultNamesAKnownCheckOnceAndFaultNamesAreUnique) {
  std::set<std::string> names;
  for (const Fault& fault : fault_matrix()) {
    EXPECT_TRUE(names.insert(std::string(fault.name)).second) << "duplicate fault " << fault.name;
    EXPECT_FALSE(fault.caught_by.empty()) << fault.name << " is caught by nothing";
    std::set<std::string> ids;
    for (std::string_view id : fault.caught_by) {
      EXPECT_NE(find_check(id), nullptr) << fault.name << " names an unknown check " << id;
      EXPECT_TRUE(ids.insert(std::string(id)).second) << fault.name << " names " << id << " twice";
    }
    EXPECT_EQ(fault.make(fast_subject())->name(), "fault:" + std::string(fault.name));
  }
}

// The known escapes still escape: when a check starts failing on one, the
// fault belongs in the matrix with that check.
TEST(FaultMatrix, theKnownEscapesPassEveryCheck) {
  for (const Fault& fault : escaping_faults()) {
    EXPECT_TRUE(fault.caught_by.empty()) << fault.name;
    for (const Check& check : all_checks()) {
      EXPECT_EQ(std::count(check.catches.begin(), check.catches.end(), fault.name), 0)
          << check.id << " lists the escaping fault " << fault.name << ": move it into fault_matrix()";
    }
    const std::unique_ptr<Subject> escaping = fault.make(fast_subject());
    for (const Check& check : all_checks()) {
      const Outcome outcome = run_check(check, *escaping, fast().config());
      EXPECT_FALSE(spoils_a_pass(outcome.verdict))
          << check.id << " now catches " << fault.name << ": move it into fault_matrix()\n"
          << outcome_text(outcome);
    }
  }
}

// An observation that would have held is shown as info, and never counts as held.
TEST(FaultMatrix, anObservationIsInfoNeverHeld) {
  bool any = false;
  for (const Check& check : all_checks()) {
    if (check.role != CheckRole::observation) continue;
    any = true;
    const Outcome& outcome = fast().of(check.id);
    EXPECT_NE(outcome.verdict, Verdict::held) << check.id;
    EXPECT_EQ(outcome.verdict, Verdict::info) << outcome_text(outcome);
  }
  EXPECT_TRUE(any);
}

// The inversion refuses what would silently drop or double a cell: a check
// naming a fault the list does not hold (misspelt, or an escaping one), or
// naming one fault twice.
TEST(FaultMatrix, aCatchesListNamingAnUnknownFaultOrOneTwiceIsRefused) {
  const Fault& first = fault_matrix().front();
  Check check = all_checks().front();
  const auto faults = [&] { return std::vector<Fault>{{first.name, first.description, first.source, first.make}}; };
  check.catches = {first.name};
  const std::vector<Fault> cells = with_cells(faults(), {check});
  ASSERT_EQ(cells.size(), 1u);
  EXPECT_EQ(cells.front().caught_by, std::vector<std::string>{check.id});
  check.catches = {first.name, first.name};
  EXPECT_THROW(with_cells(faults(), {check}), std::logic_error);
  check.catches = {"no-such-fault"};
  EXPECT_THROW(with_cells(faults(), {check}), std::logic_error);
}

}  // namespace
}  // namespace pecheck::properties
