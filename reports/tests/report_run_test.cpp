#include "pecheck/reports/report_run.hpp"

#include <stdexcept>

#include <gtest/gtest.h>

#include "pecheck/properties/accuracy_by_position.hpp"
#include "pecheck/properties/faulty_subjects.hpp"
#include "pecheck/properties/registry.hpp"

namespace pecheck::reports {
namespace {

properties::Check check_returning(std::string id, properties::Verdict verdict) {
  return {std::move(id),
          properties::Family::encoding_bounds,
          "a claim",
          "a source",
          properties::CheckKind::measurement,
          [verdict](const Subject&, const properties::RunConfig& config) {
            properties::Outcome outcome;
            outcome.verdict = verdict;
            outcome.cases = config.max_cases;
            return outcome;
          }};
}

properties::Check check_throwing() {
  return {"encoding-bounds/throws",
          properties::Family::encoding_bounds,
          "a claim",
          "a source",
          properties::CheckKind::property,
          [](const Subject&, const properties::RunConfig&) -> properties::Outcome {
            throw SubjectError("the table file is truncated at row 7");
          }};
}

TEST(RunChecks, runsEachCheckInOrderAndReportsProgress) {
  const auto subject = make_fast_subject();
  const properties::Check held = check_returning("encoding-bounds/held", properties::Verdict::held);
  const properties::Check failed = check_returning("encoding-bounds/failed", properties::Verdict::failed);
  const properties::Check throws = check_throwing();
  std::vector<std::string> steps;
  const std::vector<CheckResult> results =
      run_checks(*subject, {&held, &failed, &throws}, properties::RunConfig{},
                 [&](std::string_view step, std::size_t done, std::size_t total) {
                   steps.push_back(std::string(step) + " " + std::to_string(done) + "/" + std::to_string(total));
                 });
  ASSERT_EQ(results.size(), 3u);
  EXPECT_EQ(steps, (std::vector<std::string>{"encoding-bounds/held 0/3", "encoding-bounds/failed 1/3",
                                             "encoding-bounds/throws 2/3"}));
  EXPECT_EQ(results[0].outcome.verdict, properties::Verdict::held);
  EXPECT_EQ(results[0].claim, "a claim");
  EXPECT_EQ(results[0].outcome.subject, subject->name());
  EXPECT_EQ(results[1].outcome.verdict, properties::Verdict::failed);
  // A subject's exception is a failed outcome carrying its message, not a crash.
  EXPECT_EQ(results[2].outcome.verdict, properties::Verdict::failed);
  EXPECT_NE(results[2].outcome.message.find("truncated at row 7"), std::string::npos);
  for (const CheckResult& result : results) EXPECT_GE(result.seconds, 0.0);
}

TEST(RunConfig, modesLookHarderAsTheyGrow) {
  ReportSettings settings;
  settings.seed = 99;
  settings.mode = RunMode::quick;
  const properties::RunConfig quick = run_config(settings);
  settings.mode = RunMode::standard;
  const properties::RunConfig standard = run_config(settings);
  settings.mode = RunMode::full;
  const properties::RunConfig full = run_config(settings);
  EXPECT_TRUE(quick.quick && !quick.full);
  EXPECT_TRUE(!standard.quick && !standard.full);
  EXPECT_TRUE(full.full && !full.quick);
  EXPECT_LT(quick.max_cases, standard.max_cases);
  EXPECT_LT(standard.max_cases, full.max_cases);
  EXPECT_EQ(full.seed, 99u);
}

TEST(BuildReport, carriesTheConfigurationAndTheOutcomes) {
  const auto subject = make_fast_subject();
  const properties::Check failed = check_returning("encoding-bounds/failed", properties::Verdict::failed);
  ReportSettings settings;
  settings.seed = 0xabc;
  settings.mode = RunMode::quick;
  settings.reproduce = "pecheck report --seed 0xabc --quick";
  settings.figures = false;
  const Report report = build_report(*subject, run_checks(*subject, {&failed}, run_config(settings)), settings);
  EXPECT_EQ(report.configuration.subject, subject->name());
  EXPECT_EQ(report.configuration.seed, 0xabcu);
  EXPECT_EQ(report.configuration.mode, RunMode::quick);
  EXPECT_EQ(report.configuration.reproduce, settings.reproduce);
  EXPECT_EQ(report.configuration.max_cases, run_config(settings).max_cases);
  EXPECT_EQ(report.checks.size(), 1u);
  EXPECT_FALSE(all_held(report));
  EXPECT_TRUE(report.figures.empty());
  EXPECT_FALSE(report.environment.pecheck_version.empty());
  EXPECT_GT(report.environment.hardware_threads, 0);
}

TEST(BuildReport, withFiguresHasAccuracyTablesFiguresAndThreeFindings) {
  const auto subject = make_fast_subject();
  ReportSettings settings;
  settings.mode = RunMode::quick;
  const Report report = build_report(*subject, {}, settings);
  EXPECT_FALSE(report.accuracy.empty());
  EXPECT_GE(report.figures.size(), 5u);
  EXPECT_EQ(report.findings.size(), 3u);
}

// The headline accuracy table is conformance/accuracy-by-position's
// Outcome: a row beyond its budget is a failed check, so the run fails.
TEST(BuildReport, anAccuracyRowBeyondBudgetFailsTheRun) {
  const properties::Check* accuracy = properties::find_check(properties::accuracy_by_position_id);
  ASSERT_NE(accuracy, nullptr);
  ReportSettings settings;
  settings.mode = RunMode::quick;
  const std::shared_ptr<const Subject> fast = make_fast_subject();
  const std::unique_ptr<Subject> faulty = properties::make_float32_angle_subject(fast);
  const Report report = build_report(*faulty, run_checks(*faulty, {accuracy}, run_config(settings)), settings);
  ASSERT_FALSE(report.accuracy.empty());
  bool beyond = false;
  for (const AccuracyRow& row : report.accuracy.front().rows) {
    EXPECT_EQ(row.check_id, properties::accuracy_by_position_id);
    beyond = beyond || !within_budget(row.measurement);
  }
  EXPECT_TRUE(beyond) << "float32 angles should put a row beyond its budget";
  EXPECT_FALSE(all_held(report));
  // And the correct subject's table, from the same check, holds.
  const Report correct = build_report(*fast, run_checks(*fast, {accuracy}, run_config(settings)), settings);
  EXPECT_TRUE(all_held(correct));
  ASSERT_FALSE(correct.accuracy.empty());
  for (const AccuracyRow& row : correct.accuracy.front().rows) EXPECT_TRUE(within_budget(row.measurement));
}

// A check that was not run (RC_PARAMS max_success=0) makes the run no pass,
// like a failure; an observation's info does not.
TEST(BuildReport, aCheckNotRunIsNoPassAndInfoIsNoFailure) {
  const auto subject = make_fast_subject();
  ReportSettings settings;
  settings.figures = false;
  const properties::Check not_run = check_returning("encoding-bounds/not-run", properties::Verdict::not_run);
  const properties::Check info = check_returning("encoding-bounds/info", properties::Verdict::info);
  const Report with_not_run = build_report(*subject, run_checks(*subject, {&not_run, &info}, {}), settings);
  EXPECT_FALSE(all_held(with_not_run));
  EXPECT_EQ(summarize(with_not_run).not_run, 1);
  const Report only_info = build_report(*subject, run_checks(*subject, {&info}, {}), settings);
  EXPECT_TRUE(all_held(only_info));
  EXPECT_EQ(summarize(only_info).info, 1);
}

TEST(RegisteredChecks, areTheRegistrysInOrder) {
  const std::vector<const properties::Check*> checks = registered_checks();
  ASSERT_EQ(checks.size(), properties::all_checks().size());
  for (std::size_t i = 0; i < checks.size(); ++i) EXPECT_EQ(checks[i], &properties::all_checks()[i]);
}

}  // namespace
}  // namespace pecheck::reports
