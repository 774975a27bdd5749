#include "report_text.hpp"

#include <algorithm>
#include <cmath>
#include <vector>

#include "pecheck/format.hpp"
#include "text_format.hpp"
#include "pecheck/count_text.hpp"

namespace pecheck::reports {

std::string failure_details(const CheckResult& check) {
  const properties::Outcome& o = check.outcome;
  std::string text = "claim: " + check.claim + "\n" + o.message + "\n";
  if (!o.counterexample.empty()) {
    text += "counterexample:\n";
    for (const auto& [name, value] : o.counterexample) text += "  " + name + " = " + value + "\n";
  }
  for (const accuracy::Measurement& m : o.measurements) {
    if (within_budget(m)) continue;
    text += measurement_line(m) + ", worst at " + worst_input_text(m);
    if (m.mismatches > 0)
      text += ", " + std::to_string(m.mismatches) + " typed mismatches (signed zero, NaN, infinity)";
    text += "\n";
  }
  for (const properties::Statistic& s : o.statistics) {
    if (!within_bounds(s)) text += s.name + " = " + significant(s.value, 6) + " outside " + bounds_text(s) + "\n";
  }
  if (o.seed) text += "seed: " + hex64(*o.seed) + "\n";
  if (!o.reproduce_command.empty()) text += "reproduce: " + o.reproduce_command + "\n";
  return text;
}

std::string measured_details(const CheckResult& check) {
  std::string text = check.outcome.message + "\n";
  for (const accuracy::Measurement& m : check.outcome.measurements) text += measurement_line(m) + "\n";
  for (const properties::Statistic& s : check.outcome.statistics) {
    text += s.name + " = " + value_cell_text(s) + " (bounds " + bounds_text(s) + ")\n";
  }
  return text;
}

std::string value_text(const properties::Statistic& s) {
  if (!s.spread) return significant(s.value, 6);
  return significant(s.value, 3) + " \u00b1 " + significant(s.spread->standard_deviation, 2) +
         " (n = " + std::to_string(s.spread->draws) + ")";
}

std::string closed_form_text(const properties::Statistic& s) {
  return s.closed_form ? significant(*s.closed_form, 3) : std::string();
}

std::string value_cell_text(const properties::Statistic& s) {
  return value_text(s) + (s.closed_form ? "; closed form " + closed_form_text(s) : "");
}

std::string bounds_text(const properties::Statistic& s) {
  if (s.lower_bound && s.upper_bound) {
    return "[" + significant(*s.lower_bound, 6) + ", " + significant(*s.upper_bound, 6) + "]";
  }
  if (s.lower_bound) return ">= " + significant(*s.lower_bound, 6);
  if (s.upper_bound) return "<= " + significant(*s.upper_bound, 6);
  return "none";
}

bool within_bounds(const properties::Statistic& s) {
  return !std::isnan(s.value) && (!s.lower_bound || s.value >= *s.lower_bound) &&
         (!s.upper_bound || s.value <= *s.upper_bound);
}

std::string catches_text(const CheckResult& check) {
  if (check.catches.empty()) return "none (an observation)";
  std::string text;
  for (const std::string& fault : check.catches) text += (text.empty() ? "" : ", ") + fault;
  return text;
}

properties::Verdict statistic_verdict(const properties::Statistic& s) {
  if (!s.lower_bound && !s.upper_bound) return properties::Verdict::info;
  return within_bounds(s) ? properties::Verdict::held : properties::Verdict::failed;
}

std::string report_title(const Report& report) {
  const Configuration& c = report.configuration;
  if (c.command == "pecheck validate") return "pecheck validate: " + c.subject + ", its comparison, diagnosis and checks";
  std::vector<std::string> families;
  for (const CheckResult& check : report.checks) {
    const std::string family(properties::to_string(check.family));
    if (std::find(families.begin(), families.end(), family) == families.end()) families.push_back(family);
  }
  std::string named;
  for (const std::string& family : families) named += (named.empty() ? "" : ", ") + family;
  const std::string subject = c.subject == "fast" ? "pecheck's fast implementation" : c.subject;
  return "pecheck report: " + count_of(static_cast<std::int64_t>(report.checks.size()), "check") + " of " + subject +
         (named.empty() ? "" : " (" + named + ")");
}

std::string dim_text(const AccuracyRow& row) { return row.dim > 0 ? std::to_string(row.dim) : "several"; }

std::string worst_input_text(const accuracy::Measurement& m) {
  return "row " + std::to_string(m.worst.row) + " (position " + std::to_string(m.worst.position) + "), column " +
         std::to_string(m.worst.column) + ": " + m.worst.value_hex + ", exact " + m.worst.exact_text;
}

std::string entry_text(const accuracy::WorstInput& entry) {
  return entry.value_hex + " (" + ulps(entry.ulps) + " ULP) at position " + std::to_string(entry.position) +
         ", column " + std::to_string(entry.column) + (entry.convention.empty() ? "" : " (" + entry.convention + ")") +
         "; exact " + scientific(entry.exact.hi, 4);
}

std::string measurement_line(const accuracy::Measurement& m) {
  return std::string(format_of(m.format).name) + ": max " + ulps(m.max_ulp) + " ULP, RMS " + ulps(m.rms_ulp) +
         " ULP, max abs error " + scientific(m.max_abs_error) + " over " + count_of(m.entries, "entry", "entries") + " (budget " + ulps(m.budget_ulp) + " ULP)";
}

std::string finding_heading(const Finding& finding) {
  if (finding.short_answer.empty()) return finding.question;
  // "(a) Why ...?" -> "(a)"; a question without a label is named by its id.
  const std::string& q = finding.question;
  const std::size_t close = q.find(')');
  const std::string label = !q.empty() && q.front() == '(' && close != std::string::npos ? q.substr(0, close + 1)
                                                                                          : finding.id;
  return label + ": the argument behind the answer";
}

}  // namespace pecheck::reports
