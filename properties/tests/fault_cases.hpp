// The fault tests' shared parts: one test case per fault and check that must
// catch it, run on the fault-injected subject and, for contrast, on the
// correct fast subject, which must pass the same check.
#pragma once

#include <gtest/gtest.h>

#include <map>
#include <memory>
#include <ostream>
#include <string>
#include <utility>
#include <vector>

#include "check_runs.hpp"
#include "pecheck/properties/faulty_subjects.hpp"

namespace pecheck::properties {

struct FaultAndCheck {
  const Fault* fault;
  std::string check_id;
};

// How GoogleTest prints the parameter (GetParam() in the test list, which
// CMake's test discovery appends to the ctest name, and in failures): the
// names, not the struct's bytes.
inline void PrintTo(const FaultAndCheck& pair, std::ostream* out) {
  *out << pair.fault->name << " caught by " << pair.check_id;
}

// Every fault paired with each check that names it.
inline std::vector<FaultAndCheck> fault_check_pairs(const std::vector<Fault>& faults) {
  std::vector<FaultAndCheck> pairs;
  for (const Fault& fault : faults) {
    for (std::string_view id : fault.caught_by) pairs.push_back({&fault, std::string(id)});
  }
  return pairs;
}

// INSTANTIATE_TEST_SUITE_P's name generator: the fault, then the check's
// claim in short, "bfloat16_positions_float16_withinBudgetOfTheReference".
inline std::string fault_case_name(const ::testing::TestParamInfo<FaultAndCheck>& param_info) {
  const Check* check = find_check(param_info.param.check_id);
  const std::string check_name = check != nullptr ? check_test_name(*check) : test_name(param_info.param.check_id);
  return test_name(std::string(param_info.param.fault->name)) + "_" + check_name;
}

// The fast subject's outcome of each check under one test binary's RunConfig,
// run once per process: several faults name the same check.
class FastSubjectOutcomes {
 public:
  explicit FastSubjectOutcomes(RunConfig config) : config_(std::move(config)) {}
  const RunConfig& config() const { return config_; }
  const Outcome& of(const std::string& check_id) {
    auto found = outcomes_.find(check_id);
    if (found == outcomes_.end()) {
      found = outcomes_.emplace(check_id, run_and_print(check_id, *fast_subject(), config_)).first;
    }
    return found->second;
  }

 private:
  RunConfig config_;
  std::map<std::string, Outcome> outcomes_;
};

// What every fault test claims: the fault-injected subject fails the check
// and says why, while the fast subject holds under the same configuration.
inline void expect_caught_while_the_fast_subject_holds(const FaultAndCheck& pair, FastSubjectOutcomes& fast) {
  const auto& [fault, id] = pair;
  ASSERT_NE(find_check(id), nullptr) << "fault " << fault->name << " names an unknown check " << id;
  const std::unique_ptr<Subject> faulty = fault->make(fast_subject());
  const Outcome caught = run_and_print(id, *faulty, fast.config());
  EXPECT_EQ(caught.verdict, Verdict::failed)
      << fault->name << " (" << fault->description << ") was not caught by " << id;
  EXPECT_FALSE(caught.message.empty()) << fault->name << " was caught by " << id << " without a message";
  const Outcome& correct = fast.of(id);
  EXPECT_EQ(correct.verdict, Verdict::held) << outcome_text(correct);
  EXPECT_GT(correct.cases, 0) << id;
}

}  // namespace pecheck::properties
