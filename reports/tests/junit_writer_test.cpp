#include <gtest/gtest.h>

#include "pecheck/reports/writers.hpp"
#include "support/sample_report.hpp"
#include "support/xml_parse.hpp"

namespace pecheck::reports {
namespace {

// The testcase for a check; ids may hold control characters, which the
// writer shows as text, so match on the id's first 20 characters.
const testing::XmlElement& testcase_for(const testing::XmlElement& root, const CheckResult& check) {
  for (const testing::XmlElement* testcase : root.all("testcase")) {
    if (testcase->attribute("name")->substr(0, 20) == check.id.substr(0, 20)) return *testcase;
  }
  throw std::runtime_error("no testcase for " + check.id);
}

TEST(JunitWriter, isWellFormedWithOneTestcasePerCheck) {
  const Report report = testing::sample_report();
  const testing::XmlElement root = testing::parse_xml(write_junit(report));
  EXPECT_EQ(root.name, "testsuites");
  const auto testcases = root.all("testcase");
  ASSERT_EQ(testcases.size(), report.checks.size());
  for (const CheckResult& check : report.checks) EXPECT_NO_THROW(testcase_for(root, check));
  EXPECT_EQ(*root.attribute("tests"), "4");
  EXPECT_EQ(*root.attribute("failures"), "2");
  EXPECT_EQ(*root.attribute("skipped"), "1");
}

TEST(JunitWriter, suitesAreFamiliesWithTheirCounts) {
  const testing::XmlElement root = testing::parse_xml(write_junit(testing::sample_report()));
  const auto suites = root.all("testsuite");
  ASSERT_EQ(suites.size(), 3u);  // encoding-bounds, add-vs-concat, scaling-variance
  EXPECT_EQ(*suites[0]->attribute("name"), "encoding-bounds");
  EXPECT_EQ(*suites[0]->attribute("tests"), "2");
  EXPECT_EQ(*suites[0]->attribute("failures"), "1");
  EXPECT_EQ(suites[0]->all("testcase").size(), 2u);
}

TEST(JunitWriter, failureCarriesMessageAndCounterexample) {
  const Report report = testing::sample_report();
  const testing::XmlElement root = testing::parse_xml(write_junit(report));
  const auto failures = testcase_for(root, report.checks[1]).all("failure");
  ASSERT_EQ(failures.size(), 1u);
  const std::string& message = *failures[0]->attribute("message");
  EXPECT_EQ(message.substr(0, 26), "Falsifiable after 7 tests:");
  EXPECT_EQ(message.find('\n'), std::string::npos) << "the message attribute is the first line";
  const std::string body = failures[0]->all_text();
  EXPECT_NE(body.find("counterexample:"), std::string::npos);
  EXPECT_NE(body.find("position = 257"), std::string::npos);
  EXPECT_NE(body.find("<script>alert(\"x&y\")</script>"), std::string::npos);
  EXPECT_NE(body.find("reproduce: RC_PARAMS=\"reproduce=ABC\""), std::string::npos);
  EXPECT_EQ(*failures[0]->attribute("type"), "counterexample");
}

TEST(JunitWriter, measurementOutsideBudgetIsInTheFailure) {
  const Report report = testing::sample_report();
  const testing::XmlElement root = testing::parse_xml(write_junit(report));
  const auto failures = testcase_for(root, report.checks[2]).all("failure");
  ASSERT_EQ(failures.size(), 1u);
  const std::string body = failures[0]->all_text();
  EXPECT_NE(body.find("float16: max 1.5 ULP"), std::string::npos);
  EXPECT_EQ(body.find("float32: max"), std::string::npos) << "the float32 measurement is within its budget";
}

TEST(JunitWriter, heldAndNotApplicableChecks) {
  const Report report = testing::sample_report();
  const testing::XmlElement root = testing::parse_xml(write_junit(report));
  const testing::XmlElement& held = testcase_for(root, report.checks[0]);
  EXPECT_TRUE(held.all("failure").empty());
  EXPECT_EQ(held.all("system-out").size(), 1u);
  EXPECT_EQ(*held.attribute("time"), "0.250");
  EXPECT_EQ(testcase_for(root, report.checks[3]).all("skipped").size(), 1u);
}

TEST(JunitWriter, emptyReportIsWellFormed) {
  const testing::XmlElement root = testing::parse_xml(write_junit(Report{}));
  EXPECT_EQ(*root.attribute("tests"), "0");
  EXPECT_TRUE(root.all("testcase").empty());
}

// The checker itself: it must reject what a real parser rejects.
TEST(XmlChecker, rejectsMalformedDocuments) {
  EXPECT_THROW(testing::parse_xml("<a><b></a></b>"), testing::XmlError);
  EXPECT_THROW(testing::parse_xml("<a x=1/>"), testing::XmlError);
  EXPECT_THROW(testing::parse_xml("<a x=\"1\" x=\"2\"/>"), testing::XmlError);
  EXPECT_THROW(testing::parse_xml("<a>&nbsp;</a>"), testing::XmlError);
  EXPECT_THROW(testing::parse_xml("<a>\x01</a>"), testing::XmlError);
  EXPECT_THROW(testing::parse_xml("<a>\xff</a>"), testing::XmlError);
  EXPECT_THROW(testing::parse_xml("<a>]]></a>"), testing::XmlError);
  EXPECT_THROW(testing::parse_xml("<a x=\"<\"/>"), testing::XmlError);
  EXPECT_THROW(testing::parse_xml("<a/><b/>"), testing::XmlError);
  EXPECT_NO_THROW(testing::parse_xml("<?xml version=\"1.0\"?>\n<a x='1'>t&amp;&#10;<b/></a>\n"));
}

}  // namespace
}  // namespace pecheck::reports
