#include <cmath>
#include <set>

#include "pecheck/format.hpp"
#include "pecheck/reports/escape.hpp"
#include "pecheck/reports/writers.hpp"
#include "performance_rows.hpp"
#include "report_text.hpp"
#include "text_format.hpp"
#include "pecheck/count_text.hpp"

namespace pecheck::reports {

namespace {

std::string cell(std::string_view text) { return escape_markdown_cell(text); }

std::string verdict_cell(properties::Verdict verdict) {
  switch (verdict) {
    case properties::Verdict::held: return "\u2705 held";
    case properties::Verdict::failed: return "\u274c failed";
    case properties::Verdict::not_applicable: return "\u2796 not applicable";
    case properties::Verdict::not_run: return "\u26a0\ufe0f not run";
    case properties::Verdict::info: return "\u2139\ufe0f info";
  }
  return "?";
}

void header(std::string& out, const Report& report) {
  const Summary s = summarize(report);
  const Configuration& c = report.configuration;
  out += "# " + escape_markdown(report_title(report)) + "\n\n";
  out += std::string(all_held(report) ? "**\u2705 All checks held.**"
                     : s.failed > 0  ? "**\u274c Some checks failed.**"
                                     : "**\u26a0\ufe0f Some checks were not run.**") +
         " " + count_of(s.checks, "check") + ": " + summary_counts(s) + ".\n\n";
  out += "| Run | |\n| --- | --- |\n";
  out += "| Subject | " + cell(c.subject) + " |\n";
  out += "| Seed | " + hex64(c.seed) + " |\n";
  out += "| Mode | " + std::string(to_string(c.mode)) + " (" + count_of(c.max_cases, "case") + " per property) |\n";
  out += "| Reproduce | " + cell(c.reproduce) + " |\n\n";
}

void failures(std::string& out, const Report& report) {
  if (all_held(report)) return;
  out += "## Failed checks\n\n";
  for (const CheckResult& check : report.checks) {
    if (!properties::spoils_a_pass(check.outcome.verdict)) continue;
    out += "### " + escape_markdown(check.id) + "\n\n";
    out += "Claim: " + escape_markdown(check.claim) + "\n\n";
    out += markdown_code_block(failure_details(check)) + "\n";
  }
}

void checks_table(std::string& out, const Report& report) {
  out += "## Checks\n\n| Result | Check | Kind | Cases | Catches | Claim |\n| --- | --- | --- | ---: | --- | --- |\n";
  for (const CheckResult& check : report.checks) {
    out += "| " + verdict_cell(check.outcome.verdict) + " | " + cell(check.id) + " | " +
           std::string(properties::to_string(check.kind)) + " | " + std::to_string(check.outcome.cases) + " | " +
           cell(catches_text(check)) + " | " + cell(check.claim) + " |\n";
  }
  out += "\n";
}

// Text inside an HTML line, which Markdown leaves as it is: markup escaped,
// and backticks as entities so no viewer reads a code span into it.
std::string summary_text(std::string_view text) {
  std::string out;
  for (char c : escape_html(text)) out += c == '`' ? std::string("&#96;") : std::string(1, c);
  return out;
}

// Each check's statistics folded under one line (GitHub and most Markdown
// viewers render <details>): hundreds of rows would otherwise push the
// sections after them off every screen.
void statistics_table(std::string& out, const Report& report) {
  bool any = false;
  for (const CheckResult& check : report.checks) any = any || !check.outcome.statistics.empty();
  if (!any) return;
  out += "## Measured statistics\n\n";
  for (const CheckResult& check : report.checks) {
    if (check.outcome.statistics.empty()) continue;
    out += "<details><summary>" + summary_text(check.id) + ": " +
           count_of(static_cast<std::int64_t>(check.outcome.statistics.size()), "statistic") +
           "</summary>\n\n| Statistic | Value | Bounds | | Note |\n| --- | ---: | --- | --- | --- |\n";
    for (const properties::Statistic& s : check.outcome.statistics) {
      out += "| " + cell(s.name) + " | " + cell(value_cell_text(s)) + " | " + cell(bounds_text(s)) + " | " +
             verdict_cell(statistic_verdict(s)) + " | " + cell(s.note) + " |\n";
    }
    out += "\n</details>\n\n";
  }
}

void accuracy_tables(std::string& out, const Report& report) {
  if (report.accuracy.empty()) return;
  out += "## Accuracy\n\n";
  for (const AccuracyTable& table : report.accuracy) {
    out += "### " + escape_markdown(table.title) + "\n\n";
    if (!table.note.empty()) out += escape_markdown(table.note) + "\n\n";
    out +=
        "| Format | Budget (ULP) | Max ULP | RMS ULP | Entries | Worst input | Nearest a zero | float32 angles, max "
        "ULP | | Reference escalations |\n| --- | ---: | ---: | ---: | ---: | --- | --- | ---: | --- | ---: |\n";
    std::set<std::string> sources;
    for (const AccuracyRow& row : table.rows) {
      const accuracy::Measurement& m = row.measurement;
      out += "| " + std::string(format_of(m.format).name) + " | " + cell(ulps(m.budget_ulp)) + " | " +
             cell(ulps(m.max_ulp)) + " | " + cell(ulps(m.rms_ulp)) + " | " + std::to_string(m.entries) + " | " +
             cell(entry_text(m.worst)) + " | " + cell(m.nearest_zero ? entry_text(*m.nearest_zero) : "none") + " | " +
             cell(row.float32_angles_max_ulp ? ulps(*row.float32_angles_max_ulp) : "-") + " | " +
             (within_budget(m) ? "\u2705" : "\u274c") + " | " + std::to_string(m.reference_escalations) + " |\n";
      sources.insert(std::string(format_of(m.format).name) + ": " + ulps(m.budget_ulp) + " ULP, " + m.budget_source);
    }
    out += "\nBudgets:\n\n";
    for (const std::string& source : sources) out += "- " + escape_markdown(source) + "\n";
    out += "\n";
  }
}

void performance(std::string& out, const Report& report) {
  if (!report.performance) return;
  // No code spans here: the writer escapes every backtick outside a fence.
  out += "## Performance\n\nThe fast path on this machine, each figure as a ratio to a reference taken in the same "
         "run (" +
         escape_markdown(bench::conditions_text(*report.performance)) +
         "). Timings vary from run to run; reproduce them with pecheck bench.\n\n";
  out +=
      "| Figure | Workload | Time | Throughput | Criterion | Measured | Target | | Note |\n"
      "| --- | --- | ---: | ---: | --- | ---: | ---: | --- | --- |\n";
  for (const PerformanceRow& row : performance_rows(*report.performance)) {
    const char* mark = row.result == TargetResult::met      ? "\u2705 "
                       : row.result == TargetResult::missed ? "\u2139\ufe0f "  // information, not a failure
                                                            : "";
    out += "| " + cell(row.figure) + " | " + cell(row.workload) + " | " + cell(row.time) + " | " + cell(row.throughput) +
           " | " + cell(row.criterion) + " | " + cell(row.measured) + " | " + cell(row.target) + " | " + mark +
           cell(to_string(row.result)) + " | " + cell(row.note) + " |\n";
  }
  out += "\n| In-run reference | Size | Best time | Rate |\n| --- | ---: | ---: | ---: |\n";
  for (const ReferenceRow& row : reference_rows(*report.performance)) {
    out += "| " + cell(row.name) + " | " + cell(row.size) + " | " + cell(row.time) + " | " + cell(row.rate) + " |\n";
  }
  out += "\n";
}

// The three answers in a few lines each, before anything else: a reader of
// a CI summary gets them in the first screen.
void answers(std::string& out, const Report& report) {
  bool any = false;
  for (const Finding& finding : report.findings) any = any || !finding.short_answer.empty();
  if (!any) return;
  out += "## Answers\n\n";
  for (const Finding& finding : report.findings) {
    if (finding.short_answer.empty()) continue;
    out += "**" + escape_markdown(finding.question) + "** " + escape_markdown(finding.short_answer) + "\n\n";
    if (!finding.key_figure.empty()) out += "- Key figure: " + escape_markdown(finding.key_figure) + "\n";
    if (!finding.caveat.empty()) out += "- Caveat: " + escape_markdown(finding.caveat) + "\n";
    out += "\n";
  }
}

void findings(std::string& out, const Report& report) {
  if (report.findings.empty()) return;
  out += "## Findings\n\n";
  for (const Finding& finding : report.findings) {
    // A finding answered above refers to its answer rather than repeat the question.
    out += "### " + escape_markdown(finding_heading(finding)) + "\n\n";
    for (const std::string& paragraph : finding.answer) out += escape_markdown(paragraph) + "\n\n";
    if (!finding.supported.empty()) {
      out += "What the measurements support:\n\n";
      for (const std::string& item : finding.supported) out += "- " + escape_markdown(item) + "\n";
      out += "\n";
    }
    if (!finding.unsupported.empty()) {
      out += "What these measurements do not show:\n\n";
      for (const std::string& item : finding.unsupported) out += "- " + escape_markdown(item) + "\n";
      out += "\n";
    }
    for (const std::string& id : finding.figures) {
      for (std::size_t i = 0; i < report.figures.size(); ++i) {
        if (report.figures[i].id == id)
          out += "Shown in Figure " + std::to_string(i + 1) + " (figures/" + escape_markdown(id) + ".svg).\n\n";
      }
    }
    if (!finding.evidence.empty()) {
      out += "| Evidence | Value | Source |\n| --- | ---: | --- |\n";
      for (const Evidence& e : finding.evidence) {
        out += "| " + cell(e.label) + " | " + cell(e.value) + " | " + cell(e.source) + " |\n";
      }
      out += "\n";
    }
  }
}

void figures(std::string& out, const Report& report) {
  if (report.figures.empty()) return;
  out += "## Figures\n\nThe HTML page draws them; each is also an SVG file in figures/.\n\n";
  for (std::size_t i = 0; i < report.figures.size(); ++i) {
    const Figure& figure = report.figures[i];
    out += "- **Figure " + std::to_string(i + 1) + ". " + escape_markdown(figure.title) + "** (figures/" +
           escape_markdown(figure.id) + ".svg): " + escape_markdown(figure.caption) + "\n";
    for (const FigureNumber& number : figure.numbers)
      out += "  - " + escape_markdown(number.label + (number.column.empty() ? "" : ", " + number.column)) + ": " +
             escape_markdown(number.text) + "\n";
  }
  out += "\n";
}

void notes(std::string& out, const Report& report) {
  if (report.notes.empty()) return;
  out += "## Notes\n\nWhat this report could not compute for the subject:\n\n";
  for (const std::string& note : report.notes) out += "- " + escape_markdown(note) + "\n";
  out += "\n";
}

void environment(std::string& out, const Report& report) {
  const Environment& e = report.environment;
  out += "## Environment\n\n| | |\n| --- | --- |\n";
  out += "| pecheck | " + cell(e.pecheck_version) + " |\n";
  out += "| Compiler | " + cell(e.compiler) + " |\n";
  out += "| Build type | " + cell(e.build_type) + " |\n";
  out += "| Platform | " + cell(e.platform) + " |\n";
  out += "| Hardware threads | " + std::to_string(e.hardware_threads) + " |\n";
}

}  // namespace

std::string write_markdown(const Report& report) {
  std::string out;
  header(out, report);
  // A validation's verdict and diagnosis first, as validation.txt gives them.
  if (!report.validation_text.empty()) {
    out += "## Verdict and diagnosis\n\n" + markdown_code_block(report.validation_text) + "\n";
  }
  answers(out, report);
  failures(out, report);
  checks_table(out, report);
  accuracy_tables(out, report);
  statistics_table(out, report);
  performance(out, report);
  findings(out, report);
  figures(out, report);
  notes(out, report);
  environment(out, report);
  return out;
}

}  // namespace pecheck::reports
