#include <fstream>
#include <sstream>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "pecheck/reports/escape.hpp"
#include "pecheck/reports/writers.hpp"
#include "support/json_schema_check.hpp"
#include "support/sample_report.hpp"

namespace pecheck::reports {
namespace {

nlohmann::json load_schema() {
  std::ifstream file(PECHECK_REPORT_SCHEMA);
  if (!file) throw std::runtime_error("cannot read the schema at " PECHECK_REPORT_SCHEMA);
  return nlohmann::json::parse(file);
}

std::string joined(const std::vector<std::string>& errors) {
  std::string text;
  for (const std::string& error : errors) text += error + "\n";
  return text;
}

TEST(JsonWriter, sampleReportValidatesAgainstTheSchema) {
  const nlohmann::json document = nlohmann::json::parse(write_json(testing::sample_report()));
  const std::vector<std::string> errors = testing::SchemaChecker(load_schema()).validate(document);
  EXPECT_TRUE(errors.empty()) << joined(errors);
}

TEST(JsonWriter, emptyReportValidatesAgainstTheSchema) {
  const nlohmann::json document = nlohmann::json::parse(write_json(Report{}));
  const std::vector<std::string> errors = testing::SchemaChecker(load_schema()).validate(document);
  EXPECT_TRUE(errors.empty()) << joined(errors);
}

// The checker is only worth its verdicts if it rejects what the schema forbids.
TEST(JsonWriter, schemaCheckerRejectsBrokenDocuments) {
  const testing::SchemaChecker checker(load_schema());
  nlohmann::json document = nlohmann::json::parse(write_json(testing::sample_report()));
  nlohmann::json missing = document;
  missing["checks"][0].erase("verdict");
  EXPECT_FALSE(checker.validate(missing).empty());
  nlohmann::json wrong_type = document;
  wrong_type["checks"][2]["measurements"][0]["max_ulp"] = true;
  EXPECT_FALSE(checker.validate(wrong_type).empty());
  nlohmann::json bad_seed = document;
  bad_seed["configuration"]["seed"] = 42;
  EXPECT_FALSE(checker.validate(bad_seed).empty());
  nlohmann::json bad_version = document;
  bad_version["schema_version"] = 2;
  EXPECT_FALSE(checker.validate(bad_version).empty());
}

TEST(JsonWriter, performanceIsWhatBenchPrintsOrNull) {
  const Report report = testing::sample_report();
  const nlohmann::json document = nlohmann::json::parse(write_json(report));
  EXPECT_EQ(document["performance"], nlohmann::json::parse(bench::figures_json(*report.performance)));
  // The forward pass at 0.6 of the triad misses its 0.7; the others are met.
  for (const nlohmann::json& target : document["performance"]["targets"]) {
    EXPECT_EQ(target["met"], target["figure"] != "embed_forward") << target.dump();
  }
  EXPECT_TRUE(nlohmann::json::parse(write_json(Report{}))["performance"].is_null());
}

TEST(JsonWriter, seedKeepsAllSixtyFourBits) {
  const nlohmann::json document = nlohmann::json::parse(write_json(testing::sample_report()));
  EXPECT_EQ(document["configuration"]["seed"], "0xfedcba9876543210");
}

TEST(JsonWriter, nonFiniteNumbersAreNamedStrings) {
  const nlohmann::json document = nlohmann::json::parse(write_json(testing::sample_report()));
  const nlohmann::json& statistics = document["checks"][2]["statistics"];
  EXPECT_EQ(statistics[1]["value"], "NaN");
  EXPECT_EQ(statistics[1]["within_bounds"], false);
  EXPECT_EQ(statistics[2]["value"], "-Infinity");
  EXPECT_EQ(document["checks"][2]["measurements"][0]["histogram"]["upper_edges"][2], "Infinity");
}

TEST(JsonWriter, verdictsAndBudgetsAreReported) {
  const Report report = testing::sample_report();
  const nlohmann::json document = nlohmann::json::parse(write_json(report));
  EXPECT_EQ(document["summary"]["status"], "failed");
  EXPECT_EQ(document["summary"]["checks"], 4);
  EXPECT_EQ(document["summary"]["failed"], 2);
  EXPECT_EQ(document["summary"]["not_applicable"], 1);
  EXPECT_EQ(document["notes"].size(), report.notes.size());
  const nlohmann::json& measurements = document["checks"][2]["measurements"];
  EXPECT_EQ(measurements[0]["format"], "float32");
  EXPECT_EQ(measurements[0]["within_budget"], true);
  EXPECT_EQ(measurements[1]["within_budget"], false);
  EXPECT_EQ(measurements[1]["max_ulp"], report.checks[2].outcome.measurements[1].max_ulp);
}

TEST(JsonWriter, measurementsCarryTheReferenceEscalations) {
  Report report = testing::sample_report();
  report.checks[2].outcome.measurements[1].reference_escalations = 97;
  const nlohmann::json document = nlohmann::json::parse(write_json(report));
  const nlohmann::json& measurements = document["checks"][2]["measurements"];
  EXPECT_EQ(measurements[0]["reference_escalations"], 0);
  EXPECT_EQ(measurements[1]["reference_escalations"], 97);
}

TEST(JsonWriter, hostileStringsRoundTripAsSanitisedText) {
  const Report report = testing::sample_report();
  const std::string text = write_json(report);
  const nlohmann::json document = nlohmann::json::parse(text);  // throws if escaping broke the syntax
  const std::string message = document["checks"][1]["message"];
  EXPECT_EQ(message, sanitize_utf8(report.checks[1].outcome.message));
  EXPECT_NE(message.find("<script>alert(\"x&y\")</script>"), std::string::npos);
  EXPECT_NE(message.find(std::string("\0\x01", 2)), std::string::npos) << "control characters are kept, escaped";
  // Raw control characters never appear in the file itself.
  for (char c : text) EXPECT_FALSE(static_cast<unsigned char>(c) < 0x20 && c != '\n') << int(c);
}

TEST(JsonWriter, arraysOfNumbersTakeOneLine) {
  const std::string text = write_json(testing::sample_report());
  EXPECT_NE(text.find("\"x\": [1.0, 10.0, 100.0, 1000.0]"), std::string::npos);
  EXPECT_NE(text.find("\"upper_edges\": [0.5, 1.0, \"Infinity\"]"), std::string::npos);
  EXPECT_NE(text.find("\"counterexample\": [\n"), std::string::npos) << "arrays of objects stay indented";
}

TEST(JsonWriter, sameReportSameBytes) {
  EXPECT_EQ(write_json(testing::sample_report()), write_json(testing::sample_report()));
}

TEST(JsonWriter, durationsAreNotWritten) {
  Report a = testing::sample_report();
  Report b = a;
  b.checks[0].seconds = 99.0;
  EXPECT_EQ(write_json(a), write_json(b));
}

}  // namespace
}  // namespace pecheck::reports
