#include <cstdio>
#include <map>

#include "pecheck/reports/escape.hpp"
#include "pecheck/reports/writers.hpp"
#include "report_text.hpp"
#include "text_format.hpp"

namespace pecheck::reports {

namespace {

std::string attribute(std::string_view name, std::string_view value) {
  return " " + std::string(name) + "=\"" + escape_xml_attribute(value) + "\"";
}

std::string seconds(double value) {
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%.3f", value);
  return buffer;
}

std::string first_line(std::string_view text) { return std::string(text.substr(0, text.find('\n'))); }

}  // namespace

std::string write_junit(const Report& report) {
  // Families in the report's order of first appearance.
  std::vector<properties::Family> order;
  std::map<properties::Family, std::vector<const CheckResult*>> by_family;
  for (const CheckResult& check : report.checks) {
    if (by_family[check.family].empty()) order.push_back(check.family);
    by_family[check.family].push_back(&check);
  }
  const Summary summary = summarize(report);
  double total_seconds = 0.0;
  for (const CheckResult& check : report.checks) total_seconds += check.seconds;

  std::string out = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n";
  out += "<testsuites" + attribute("name", "pecheck " + report.configuration.subject) +
         attribute("tests", std::to_string(summary.checks)) + attribute("failures", std::to_string(summary.failed)) +
         attribute("errors", std::to_string(summary.not_run)) +
         attribute("skipped", std::to_string(summary.not_applicable)) + attribute("time", seconds(total_seconds)) +
         ">\n";
  for (properties::Family family : order) {
    const auto& checks = by_family[family];
    int failures = 0, errors = 0, skipped = 0;
    double suite_seconds = 0.0;
    for (const CheckResult* check : checks) {
      failures += check->outcome.verdict == properties::Verdict::failed;
      skipped += check->outcome.verdict == properties::Verdict::not_applicable;
      errors += check->outcome.verdict == properties::Verdict::not_run;
      suite_seconds += check->seconds;
    }
    out += "  <testsuite" + attribute("name", properties::to_string(family)) +
           attribute("tests", std::to_string(checks.size())) + attribute("failures", std::to_string(failures)) +
           attribute("errors", std::to_string(errors)) + attribute("skipped", std::to_string(skipped)) +
           attribute("time", seconds(suite_seconds)) + ">\n";
    out +=
        "    <properties>"
        "<property" +
        attribute("name", "seed") + attribute("value", hex64(report.configuration.seed)) +
        "/>"
        "<property" +
        attribute("name", "subject") + attribute("value", report.configuration.subject) + "/></properties>\n";
    for (const CheckResult* check : checks) {
      out += "    <testcase" + attribute("classname", "pecheck." + std::string(properties::to_string(family))) +
             attribute("name", check->id) + attribute("time", seconds(check->seconds)) + ">\n";
      switch (check->outcome.verdict) {
        case properties::Verdict::failed:
          out += "      <failure" + attribute("message", first_line(check->outcome.message)) +
                 attribute("type", check->outcome.counterexample.empty() ? "failed" : "counterexample") + ">" +
                 escape_xml_text(failure_details(*check)) + "</failure>\n";
          break;
        case properties::Verdict::not_applicable:
          out += "      <skipped" + attribute("message", check->outcome.message) + "/>\n";
          break;
        case properties::Verdict::not_run:
          // An error, not a skip: CI must not show a claim tried on nothing as green.
          out += "      <error" + attribute("message", first_line(check->outcome.message)) +
                 attribute("type", "not run") + "/>\n";
          break;
        case properties::Verdict::held:
        case properties::Verdict::info:
          out += "      <system-out>" + escape_xml_text(measured_details(*check)) + "</system-out>\n";
          break;
      }
      out += "    </testcase>\n";
    }
    out += "  </testsuite>\n";
  }
  out += "</testsuites>\n";
  return out;
}

}  // namespace pecheck::reports
