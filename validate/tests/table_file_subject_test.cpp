// A table file as a subject: the registered encoding-bounds and conformance
// checks run on the rows it holds, and find what is wrong with a bad one.
#include <gtest/gtest.h>

#include <cmath>

#include "pecheck/external_subjects.hpp"
#include "pecheck/fast_encoding.hpp"
#include "pecheck/properties/registry.hpp"

namespace pecheck {
namespace {

std::vector<properties::Outcome> run_file_checks(const Subject& subject) {
  properties::RunConfig config;
  config.max_cases = 10;
  config.quick = true;
  config.honour_rc_params = false;
  std::vector<properties::Outcome> outcomes;
  for (const properties::Check& check : properties::all_checks()) {
    if (check.family != properties::Family::encoding_bounds && check.family != properties::Family::conformance) continue;
    outcomes.push_back(properties::run_check(check, subject, config));
  }
  return outcomes;
}

TEST(TableFileSubject, servesItsOwnRowsAndRefusesOthers) {
  const Convention vaswani = *find_preset("vaswani");
  const auto subject = make_table_file_subject("pe.npy", fast_table(vaswani, {8, 16, 100}, FormatId::float32), vaswani, 100);
  const SubjectCapabilities capabilities = subject->capabilities();
  ASSERT_TRUE(capabilities.fixed_request.has_value());
  EXPECT_EQ(capabilities.fixed_request->row_offset, 100);
  EXPECT_FALSE(capabilities.any_convention);
  EXPECT_EQ(subject->encoding_table(vaswani, {2, 16, 103}, FormatId::float32).at(0, 0),
            fast_table(vaswani, {1, 16, 103}, FormatId::float32).at(0, 0));
  EXPECT_THROW(subject->encoding_table(vaswani, {2, 16, 107}, FormatId::float32), SubjectError);
  EXPECT_THROW(subject->encoding_table(vaswani, {2, 16, 100}, FormatId::float16), SubjectError);
  EXPECT_THROW(subject->encoding_table(*find_preset("fairseq"), {2, 16, 100}, FormatId::float32), SubjectError);
}

TEST(TableFileSubject, aCorrectTablePassesEveryApplicableCheck) {
  const Convention fairseq = *find_preset("fairseq");
  const auto subject = make_table_file_subject("pe.npy", fast_table(fairseq, {64, 32, 0}, FormatId::float32), fairseq, 0);
  for (const properties::Outcome& outcome : run_file_checks(*subject)) {
    EXPECT_NE(outcome.verdict, properties::Verdict::failed) << outcome.check_id << ": " << outcome.message;
  }
}

TEST(TableFileSubject, float32AnglesFailConformance) {
  const Convention vaswani = *find_preset("vaswani");
  Table table = make_table(64, 32, FormatId::float32);
  for (std::int64_t r = 0; r < table.rows; ++r) {
    for (std::int64_t c = 0; c < table.cols; ++c) {
      const auto w = static_cast<float>(frequency_value(vaswani, 32, c / 2));
      const float angle = static_cast<float>(r + 5000) * w;
      table.set(r, c, c % 2 == 0 ? std::sin(angle) : std::cos(angle));
    }
  }
  const auto subject = make_table_file_subject("pe.npy", table, vaswani, 5000);
  bool conformance_failed = false;
  for (const properties::Outcome& outcome : run_file_checks(*subject)) {
    if (outcome.check_id.rfind("conformance/", 0) == 0) conformance_failed |= outcome.verdict == properties::Verdict::failed;
  }
  EXPECT_TRUE(conformance_failed);
}

}  // namespace
}  // namespace pecheck
