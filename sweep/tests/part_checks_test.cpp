// Tampered parts are refused by `pecheck merge`, naming the file and the
// field: each edit below once merged with exit 0 (a NaN worst value printed
// as "held ... max inf ULP", an absurd sum of squares, a worst row outside the
// shard's rows), and an untouched part still reads back.
#include <gtest/gtest.h>

#include <functional>
#include <nlohmann/json.hpp>
#include <string>

#include "pecheck/sweep/result.hpp"
#include "pecheck/sweep/run.hpp"

namespace pecheck::sweep {
namespace {

using Json = nlohmann::ordered_json;

// A part with a measured worst entry and a count beyond nothing: vaswani d 8,
// rows 0:9, shard 1 of 2 (rows 5:9).
const std::string& good_part() {
  static const std::string text = [] {
    const SweepWork work = make_work("vaswani", parse_widths("8"), FormatId::float32, {0, 9}, "fast");
    const InclusiveRange rows = shard_positions(work.positions, {1, 2});
    return result_json({work, {1, 2}, rows, run_sweep(work, rows, 1)});
  }();
  return text;
}

// The message of reading the good part after `edit`, or "" when it reads.
std::string refusal(const std::function<void(Json&)>& edit) {
  Json part = Json::parse(good_part());
  edit(part);
  try {
    (void)parse_result_json(part.dump(2), "part1.json");
  } catch (const SweepFileError& e) {
    return e.what();
  }
  return {};
}

void expect_refused(const std::function<void(Json&)>& edit, const std::string& field) {
  const std::string message = refusal(edit);
  EXPECT_NE(message.find("part1.json: field '" + field + "'"), std::string::npos) << "got: " << message;
}

TEST(SweepPartChecks, theUntouchedPartReads) { EXPECT_EQ(refusal([](Json&) {}), ""); }

TEST(SweepPartChecks, aNanWorstValueIsRefused) {
  expect_refused([](Json& p) { p["worst_ulp"]["value_bits"] = "0x7fc00000"; }, "worst_ulp.value_bits");
}

TEST(SweepPartChecks, aWorstValueThatIsNotTheSubjectsIsRefused) {
  expect_refused([](Json& p) {
    const std::string bits = p["worst_ulp"]["value_bits"];
    const unsigned long long b = std::stoull(bits, nullptr, 16);
    char text[16];
    std::snprintf(text, sizeof text, "0x%08llx", b ^ 1u);
    p["worst_ulp"]["value_bits"] = text;
  }, "worst_ulp.value_bits");
}

TEST(SweepPartChecks, anExactValueThatIsNotTheReferencesIsRefused) {
  expect_refused([](Json& p) { p["worst_abs_error"]["exact"]["hi"] = "0x1p-1"; }, "worst_abs_error.exact");
  expect_refused([](Json& p) { p["worst_abs_error"]["exact"]["hi"] = "nan"; }, "worst_abs_error.exact");
}

TEST(SweepPartChecks, aWorstRowOutsideTheShardIsRefused) {
  expect_refused([](Json& p) { p["worst_ulp"]["row"] = 2; }, "worst_ulp.row");
  expect_refused([](Json& p) { p["worst_ulp"]["dim"] = 16; }, "worst_ulp.dim");
  expect_refused([](Json& p) { p["worst_ulp"]["column"] = 8; }, "worst_ulp.column");
  expect_refused([](Json& p) { p["worst_ulp"]["position"] = 1234; }, "worst_ulp.position");
}

TEST(SweepPartChecks, aSumOfSquaresInconsistentWithTheCountAndMaxIsRefused) {
  expect_refused([](Json& p) { p["sum_squares_ulp"]["integer"] = "0xffffffffffffffffffffffffffffffff"; },
                 "sum_squares_ulp.integer");
  expect_refused([](Json& p) { p["sum_squares_ulp"]["integer"] = "0x1"; }, "sum_squares_ulp.integer");
}

TEST(SweepPartChecks, countsThatDisagreeWithTheWorstEntriesAreRefused) {
  expect_refused([](Json& p) { p["beyond_budget"] = 3; }, "beyond_budget");
  expect_refused([](Json& p) { p["worst_ulp"] = nullptr; }, "worst_ulp");
  expect_refused([](Json& p) { p["work"]["budget_ulp"] = 1e300; }, "work.budget_ulp");
  expect_refused([](Json& p) { p["work"]["dims"]["last"] = 4611686018427387904; }, "work.dims");
}

}  // namespace
}  // namespace pecheck::sweep
