// The training family's part of the fault matrix, cell by cell: each fault a
// training check names (CheckDefinition::catches) makes it fail, while the
// correct fast subject passes it, under the standard plan's sizes and seeds.
// Only the cells the claims read are trained (training::use_plan): the same
// runs, seed for seed, as in `pecheck report --training`'s grid. Minutes of
// CPU, so not among the default tests (training/tests/CMakeLists.txt).
#include <gtest/gtest.h>

#include <iostream>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "pecheck/properties/fault_names.hpp"
#include "pecheck/properties/faulty_subjects.hpp"
#include "pecheck/properties/registry.hpp"
#include "pecheck/subject.hpp"
#include "pecheck/training/training_checks.hpp"

namespace pecheck::training {
namespace {

// The cells the asserting checks compare: reverse, post-LN and pre-LN, the
// paper's configuration against PyTorch's N(0, 1) with the scale, trained to
// the comparison step and no further.
Plan matrix_plan() {
  Plan plan = standard_plan();
  plan.tasks = {Task::reverse};
  plan.configurations = {"paper", "unit-scaled"};
  plan.sizes.steps = plan.compare_step;
  return plan;
}

properties::RunConfig matrix_config() {
  properties::RunConfig config;
  config.honour_rc_params = false;
  return config;
}

struct MatrixCell {
  const properties::Fault* fault;
  const properties::Check* check;
};

std::vector<MatrixCell> cells() {
  static const std::vector<properties::Fault> faults =
      properties::with_cells([] {
        std::vector<properties::Fault> all = properties::fault_matrix();
        for (properties::Fault& fault : all) fault.caught_by.clear();  // the training checks' cells only
        return all;
      }(), training_checks());
  std::vector<MatrixCell> out;
  for (const properties::Fault& fault : faults) {
    for (const std::string& id : fault.caught_by) out.push_back({&fault, find_training_check(id)});
  }
  return out;
}

class TrainingFaultMatrix : public ::testing::TestWithParam<MatrixCell> {
 protected:
  static void SetUpTestSuite() { use_plan(matrix_plan()); }
  static void TearDownTestSuite() { use_plan(std::nullopt); }
};

// The fast subject's outcome of each check, run once.
const properties::Outcome& fast_outcome(const properties::Check& check) {
  static std::map<std::string, properties::Outcome> outcomes;
  static const std::unique_ptr<Subject> fast = make_fast_subject();
  auto found = outcomes.find(check.id);
  if (found == outcomes.end()) found = outcomes.emplace(check.id, run_check(check, *fast, matrix_config())).first;
  return found->second;
}

TEST_P(TrainingFaultMatrix, theFaultFailsTheCheckWhileTheFastSubjectPasses) {
  const auto& [fault, check] = GetParam();
  ASSERT_NE(check, nullptr);
  const std::unique_ptr<Subject> faulty = fault->make(std::shared_ptr<const Subject>(make_fast_subject()));
  const properties::Outcome caught = run_check(*check, *faulty, matrix_config());
  EXPECT_EQ(caught.verdict, properties::Verdict::failed)
      << fault->name << " was not caught by " << check->id << ": " << caught.message;
  const properties::Outcome& correct = fast_outcome(*check);
  EXPECT_EQ(correct.verdict, properties::Verdict::held) << check->id << ": " << correct.message;
  // The figures behind each cell, for the record (docs/checks.md quotes them).
  std::cout << fault->name << ": " << caught.message << "\nfast: " << correct.message << '\n';
}

INSTANTIATE_TEST_SUITE_P(Cells, TrainingFaultMatrix, ::testing::ValuesIn(cells()),
                         [](const ::testing::TestParamInfo<MatrixCell>& cell) {
                           std::string name = std::string(cell.param.fault->name) + "_" + cell.param.check->short_claim;
                           for (char& c : name) c = (c == '-' || c == '/') ? '_' : c;
                           return name;
                         });

// The family names the scale faults: the matrix has their cells.
TEST(TrainingFaultMatrix, theScaleFaultsHaveCells) {
  std::set<std::string> named;
  for (const MatrixCell& cell : cells()) named.insert(std::string(cell.fault->name));
  for (std::string_view fault : {properties::faults::scale_divided, properties::faults::scale_missing,
                                 properties::faults::scale_applied_twice}) {
    EXPECT_EQ(named.count(std::string(fault)), 1u) << fault;
  }
}

// Every training check that names a fault is a claim, and only those.
TEST(TrainingFaultMatrix, aCheckThatNamesAFaultIsAClaim) {
  for (const properties::Check& check : training_checks()) {
    EXPECT_EQ(check.role == properties::CheckRole::claim, !check.catches.empty()) << check.id;
  }
}

}  // namespace
}  // namespace pecheck::training
