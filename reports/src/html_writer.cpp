#include <set>

#include "pecheck/format.hpp"
#include "pecheck/reports/escape.hpp"
#include "pecheck/reports/svg_plot.hpp"
#include "pecheck/reports/writers.hpp"
#include "performance_rows.hpp"
#include "report_text.hpp"
#include "text_format.hpp"
#include "pecheck/count_text.hpp"

namespace pecheck::reports {

namespace {

std::string h(std::string_view text) { return escape_html(text); }

// Inline only, no external font: the page must render offline, as it is.
constexpr const char* style = R"css(
body { font-family: system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif;
       margin: 0 auto; max-width: 1120px; padding: 0 20px 40px; color: #1b1b1b; line-height: 1.45; }
h1 { margin-top: 24px; font-size: 1.7em; }
h2 { border-bottom: 1px solid #ccc; padding-bottom: 4px; margin-top: 36px; }
table { border-collapse: collapse; margin: 10px 0 16px; font-size: 0.92em; }
th, td { border: 1px solid #d0d0d0; padding: 3px 8px; text-align: left; vertical-align: top; }
th { background: #f0f0f0; }
tr:nth-child(even) td { background: #fafafa; }
td.num { text-align: right; font-variant-numeric: tabular-nums; white-space: nowrap; }
code, pre, .mono { font-family: ui-monospace, "DejaVu Sans Mono", Menlo, Consolas, monospace; font-size: 0.9em; }
pre { background: #f6f6f6; border: 1px solid #ddd; padding: 8px; overflow-x: auto; white-space: pre-wrap; }
.held { color: #0a6b2f; font-weight: 600; }
.failed { color: #b00020; font-weight: 600; }
.na { color: #666; font-weight: 600; }
.banner { padding: 10px 14px; border-radius: 4px; font-size: 1.1em; }
.banner.held { background: #e6f4ea; }
.banner.failed { background: #fdecee; }
dl.run { display: grid; grid-template-columns: max-content auto; gap: 2px 14px; }
dl.run dt { font-weight: 600; }
dl.run dd { margin: 0; }
figure { margin: 20px 0 28px; }
/* One figure to a row, at the size it was drawn (760 px for one panel, 1080 for two across): its
   labels stay at 11 px or more on a 1400 px screen (two to a row halved them to 6-8 px). */
.figures { display: block; }
.figures figure { margin: 12px 0 20px; }
figure svg { max-width: 100%; height: auto; border: 1px solid #e3e3e3; }
/* The figure's numbers beside it (below it when it is too wide for both), the caption under both. */
.figure-row { display: flex; flex-wrap: wrap; gap: 10px 18px; align-items: flex-start; }
.figure-row svg { flex: 0 0 auto; }
.figure-side { flex: 1 1 260px; font-size: 0.88em; }
.figure-side table { margin: 0 0 6px; font-size: 1em; }
.figure-side p { margin: 0; color: #444; }
figcaption { font-size: 0.93em; color: #333; margin-top: 6px; }
nav ul { columns: 2; }
details { margin: 4px 0; }
summary { cursor: pointer; }
.finding { border-left: 4px solid #0072b2; padding-left: 14px; margin: 18px 0; }
)css";

std::string verdict_span(properties::Verdict verdict) {
  switch (verdict) {
    case properties::Verdict::held: return "<span class=\"held\">held</span>";
    case properties::Verdict::failed: return "<span class=\"failed\">failed</span>";
    case properties::Verdict::not_applicable: return "<span class=\"na\">not applicable</span>";
    case properties::Verdict::not_run: return "<span class=\"failed\">not run</span>";
    case properties::Verdict::info: return "<span class=\"na\">info</span>";
  }
  return "?";
}

std::string td(std::string_view text) { return "<td>" + h(text) + "</td>"; }
std::string td_num(std::string_view text) { return "<td class=\"num\">" + h(text) + "</td>"; }

void header(std::string& out, const Report& report, const HtmlOptions& options) {
  const Configuration& c = report.configuration;
  const Summary s = summarize(report);
  const bool held = all_held(report);
  out += "<header>\n<h1>" + h(report_title(report)) + "</h1>\n";
  out += std::string("<p class=\"banner ") +
         (held           ? "held\">All checks held."
          : s.failed > 0 ? "failed\">Some checks failed."
                         : "failed\">Some checks were not run.") +
         " " + count_of(s.checks, "check") + ": " + h(summary_counts(s)) + ".</p>\n<dl class=\"run\">\n";
  out += "<dt>Subject</dt><dd>" + h(c.subject) + "</dd>\n";
  out += "<dt>Seed</dt><dd class=\"mono\">" + hex64(c.seed) + "</dd>\n";
  out +=
      "<dt>Mode</dt><dd>" + h(to_string(c.mode)) + " (" + count_of(c.max_cases, "case") + " per property)</dd>\n";
  out += "<dt>Reproduce</dt><dd><code>" + h(c.reproduce) + "</code></dd>\n";
  if (options.date) out += "<dt>Date</dt><dd>" + h(*options.date) + "</dd>\n";
  out += "</dl>\n</header>\n";
}

void contents(std::string& out, const Report& report) {
  out += "<nav><h2>Contents</h2><ul>\n";
  bool answered = false;
  for (const Finding& finding : report.findings) answered = answered || !finding.short_answer.empty();
  if (answered) out += "<li><a href=\"#answers\">Answers</a></li>\n";
  if (!all_held(report)) out += "<li><a href=\"#failures\">Failed checks</a></li>\n";
  if (!report.findings.empty()) out += "<li><a href=\"#findings\">Findings</a></li>\n";
  if (!report.figures.empty()) out += "<li><a href=\"#figures\">Figures</a></li>\n";
  if (!report.accuracy.empty()) out += "<li><a href=\"#accuracy\">Accuracy</a></li>\n";
  if (report.performance) out += "<li><a href=\"#performance\">Performance</a></li>\n";
  out += "<li><a href=\"#checks\">Checks</a></li>\n";
  if (!report.notes.empty()) out += "<li><a href=\"#notes\">Notes</a></li>\n";
  out += "<li><a href=\"#environment\">Environment</a></li>\n</ul></nav>\n";
}

void failures(std::string& out, const Report& report) {
  if (all_held(report)) return;
  out += "<section id=\"failures\"><h2>Failed checks</h2>\n";
  for (const CheckResult& check : report.checks) {
    if (!properties::spoils_a_pass(check.outcome.verdict)) continue;
    out += "<h3 class=\"failed\">" + h(check.id) + "</h3>\n<pre>" + h(failure_details(check)) + "</pre>\n";
  }
  out += "</section>\n";
}

// One folded line per check: its status and id; the claim, kind, cases,
// the faults it catches, its source and what it measured open beneath.
void checks(std::string& out, const Report& report) {
  out += "<section id=\"checks\"><h2>Checks</h2>\n";
  for (const CheckResult& check : report.checks) {
    out += "<details class=\"check\"><summary>" + verdict_span(check.outcome.verdict) + " " + h(check.id) +
           "</summary>\n<p>" + h(check.claim) + "</p>\n<p>" + h(properties::to_string(check.kind)) + ", " +
           h(count_of(check.outcome.cases, "case")) + ". Catches: " + h(catches_text(check)) +
           ". Source: " + h(check.source) + ".</p>\n<pre>" +
           h(properties::spoils_a_pass(check.outcome.verdict) ? failure_details(check) : measured_details(check));
    if (!check.outcome.distribution.empty()) {
      out += h("generated cases by class:\n");
      for (const auto& [label, count] : check.outcome.distribution) {
        out += h("  " + (label.empty() ? std::string("(untagged)") : label) + ": " + std::to_string(count) + "\n");
      }
    }
    out += "</pre></details>\n";
  }
  out += "</section>\n";
}

void accuracy(std::string& out, const Report& report) {
  if (report.accuracy.empty()) return;
  out += "<section id=\"accuracy\"><h2>Accuracy</h2>\n";
  for (const AccuracyTable& table : report.accuracy) {
    out += "<h3>" + h(table.title) + "</h3>\n";
    if (!table.note.empty()) out += "<p>" + h(table.note) + "</p>\n";
    out +=
        "<table>\n<tr><th>Format</th><th>Budget (ULP)</th><th>Max ULP</th><th>RMS ULP</th><th>Entries</th>"
        "<th>Worst input</th><th>Nearest a zero</th><th>float32 angles, max ULP</th><th></th>"
        "<th>Reference escalations</th></tr>\n";
    std::set<std::string> sources;
    for (const AccuracyRow& row : table.rows) {
      const accuracy::Measurement& m = row.measurement;
      out += "<tr>" + td(format_of(m.format).name) + td_num(ulps(m.budget_ulp)) + td_num(ulps(m.max_ulp)) +
             td_num(ulps(m.rms_ulp)) + td_num(std::to_string(m.entries)) + "<td class=\"mono\">" +
             h(entry_text(m.worst)) + "</td><td class=\"mono\">" +
             h(m.nearest_zero ? entry_text(*m.nearest_zero) : std::string("none")) + "</td>" +
             td_num(row.float32_angles_max_ulp ? ulps(*row.float32_angles_max_ulp) : std::string("-")) + "<td>" +
             verdict_span(within_budget(m) ? properties::Verdict::held : properties::Verdict::failed) + "</td>" +
             td_num(std::to_string(m.reference_escalations)) + "</tr>\n";
      sources.insert(std::string(format_of(m.format).name) + ": " + ulps(m.budget_ulp) + " ULP, " + m.budget_source);
    }
    out += "</table>\n<details><summary>Where each budget comes from</summary>\n<ul>\n";
    for (const std::string& source : sources) out += "<li>" + h(source) + "</li>\n";
    out += "</ul>\n</details>\n";
  }
  out += "</section>\n";
}

std::string result_span(TargetResult result) {
  // A missed target is information about this machine, not a failed check: grey, not red.
  const char* kind = result == TargetResult::met ? "held" : "na";
  return "<span class=\"" + std::string(kind) + "\">" + h(to_string(result)) + "</span>";
}

void performance(std::string& out, const Report& report) {
  if (!report.performance) return;
  out += "<section id=\"performance\"><h2>Performance</h2>\n<p>The fast path on this machine, each figure as a "
         "ratio to a reference taken in the same run (" +
         h(bench::conditions_text(*report.performance)) +
         "). Timings vary from run to run; reproduce them with <code>pecheck bench</code>.</p>\n";
  out +=
      "<table>\n<tr><th>Figure</th><th>Workload</th><th>Time</th><th>Throughput</th><th>Criterion</th>"
      "<th>Measured</th><th>Target</th><th></th><th>Note</th></tr>\n";
  for (const PerformanceRow& row : performance_rows(*report.performance)) {
    out += "<tr>" + td(row.figure) + td(row.workload) + td_num(row.time) + td_num(row.throughput) + td(row.criterion) +
           td_num(row.measured) + td_num(row.target) + "<td>" + result_span(row.result) + "</td>" + td(row.note) +
           "</tr>\n";
  }
  out +=
      "</table>\n<details><summary>The in-run references the ratios divide by</summary>\n<table>\n"
      "<tr><th>In-run reference</th><th>Size</th><th>Best time</th><th>Rate</th></tr>\n";
  for (const ReferenceRow& row : reference_rows(*report.performance)) {
    out += "<tr>" + td(row.name) + td_num(row.size) + td_num(row.time) + td_num(row.rate) + "</tr>\n";
  }
  out += "</table>\n</details>\n</section>\n";
}

void list(std::string& out, std::string_view title, const std::vector<std::string>& items) {
  if (items.empty()) return;
  out += "<p><strong>" + h(title) + "</strong></p>\n<ul>\n";
  for (const std::string& item : items) out += "<li>" + h(item) + "</li>\n";
  out += "</ul>\n";
}

// The three answers in brief, first on the page.
void answers(std::string& out, const Report& report) {
  bool any = false;
  for (const Finding& finding : report.findings) any = any || !finding.short_answer.empty();
  if (!any) return;
  out += "<section id=\"answers\"><h2>Answers</h2>\n";
  for (const Finding& finding : report.findings) {
    if (finding.short_answer.empty()) continue;
    out += "<div class=\"answer\" id=\"answer-" + h(finding.id) + "\"><h3><a href=\"#finding-" + h(finding.id) +
           "\">" + h(finding.question) + "</a></h3>\n<p>" + h(finding.short_answer) + "</p>\n<ul>\n";
    if (!finding.key_figure.empty()) out += "<li><strong>Key figure:</strong> " + h(finding.key_figure) + "</li>\n";
    if (!finding.caveat.empty()) out += "<li><strong>Caveat:</strong> " + h(finding.caveat) + "</li>\n";
    out += "</ul></div>\n";
  }
  out += "</section>\n";
}

void findings(std::string& out, const Report& report) {
  if (report.findings.empty()) return;
  out += "<section id=\"findings\"><h2>Findings</h2>\n";
  for (const Finding& finding : report.findings) {
    // A finding answered above refers to its answer and folds its argument,
    // so that nothing of the Answers is said twice; one the Answers leave out
    // shows its question and first paragraph.
    const bool answered = !finding.short_answer.empty();
    out += "<div class=\"finding\" id=\"finding-" + h(finding.id) + "\">\n<h3>" + h(finding_heading(finding)) +
           "</h3>\n";
    if (answered) {
      out += "<p>The answer is <a href=\"#answer-" + h(finding.id) +
             "\">above</a>; here is how the measurements reach it.</p>\n";
    } else if (!finding.answer.empty()) {
      out += "<p>" + h(finding.answer.front()) + "</p>\n";
    }
    // Figures are drawn once, numbered, in the Figures section; a finding refers to them.
    std::string shown;
    for (const std::string& id : finding.figures) {
      for (std::size_t i = 0; i < report.figures.size(); ++i) {
        if (report.figures[i].id != id) continue;
        shown += std::string(shown.empty() ? "" : ", ") + "<a href=\"#figure-" + h(id) + "\">Figure " +
                 std::to_string(i + 1) + "</a> (" + h(report.figures[i].title) + ")";
      }
    }
    if (!shown.empty()) out += "<p>Shown in " + shown + ".</p>\n";
    out += "<details><summary>The argument, what the measurements support and do not show, and " +
           h(count_of(static_cast<std::int64_t>(finding.evidence.size()), "measured value")) + "</summary>\n";
    for (std::size_t p = answered ? 0 : 1; p < finding.answer.size(); ++p)
      out += "<p>" + h(finding.answer[p]) + "</p>\n";
    list(out, "What the measurements support", finding.supported);
    list(out, "What these measurements do not show", finding.unsupported);
    if (!finding.evidence.empty()) {
      out += "<table>\n<tr><th>Evidence</th><th>Value</th><th>Source</th></tr>\n";
      for (const Evidence& e : finding.evidence)
        out += "<tr>" + td(e.label) + td_num(e.value) + td(e.source) + "</tr>\n";
      out += "</table>\n";
    }
    out += "</details>\n";
    out += "</div>\n";
  }
  out += "</section>\n";
}

// A figure's numbers as a table: a row per label, a column per place on the
// x axis ("s = 1") in the order they first appear, or the one column "Value".
std::string numbers_table(const Figure& figure, std::size_t number) {
  std::vector<std::string> rows, columns;
  for (const FigureNumber& n : figure.numbers) {
    if (std::find(rows.begin(), rows.end(), n.label) == rows.end()) rows.push_back(n.label);
    if (std::find(columns.begin(), columns.end(), n.column) == columns.end()) columns.push_back(n.column);
  }
  std::string out = "<table class=\"figure-numbers\">\n<tr><th>Figure " + std::to_string(number) + "</th>";
  for (const std::string& column : columns) out += "<th>" + h(column.empty() ? "Value" : column) + "</th>";
  out += "</tr>\n";
  for (const std::string& row : rows) {
    out += "<tr>" + td(row);
    for (const std::string& column : columns) {
      const auto cell = std::find_if(figure.numbers.begin(), figure.numbers.end(),
                                     [&](const FigureNumber& n) { return n.label == row && n.column == column; });
      out += td_num(cell == figure.numbers.end() ? std::string() : cell->text);
    }
    out += "</tr>\n";
  }
  return out + "</table>\n";
}

void figures(std::string& out, const Report& report) {
  if (report.figures.empty()) return;
  out += "<section id=\"figures\"><h2>Figures</h2>\n<div class=\"figures\">\n";
  for (std::size_t n = 0; n < report.figures.size(); ++n) {
    const Figure& figure = report.figures[n];
    out += "<figure id=\"figure-" + h(figure.id) + "\">\n<div class=\"figure-row\">\n" + render_figure_svg(figure) +
           "<div class=\"figure-side\">\n";
    // The numbers the figure shows, beside it, so that its caption stays short.
    if (!figure.numbers.empty()) out += numbers_table(figure, n + 1);
    if (!figure.sources.empty()) {
      out += "<p><em>Data:</em> ";
      for (std::size_t i = 0; i < figure.sources.size(); ++i) out += (i ? "; " : "") + h(figure.sources[i]);
      out += ".</p>\n";
    }
    out += "</div>\n</div>\n<figcaption><strong>Figure " + std::to_string(n + 1) + ". " + h(figure.title) +
           ".</strong> " + h(figure.caption) + "</figcaption>\n</figure>\n";
  }
  out += "</div>\n</section>\n";
}

void notes(std::string& out, const Report& report) {
  if (report.notes.empty()) return;
  out += "<section id=\"notes\"><h2>Notes</h2>\n";
  list(out, "What this report could not compute for the subject", report.notes);
  out += "</section>\n";
}

void environment(std::string& out, const Report& report) {
  const Environment& e = report.environment;
  out += "<section id=\"environment\"><h2>Environment</h2>\n<table>\n";
  out += "<tr><th>pecheck</th>" + td(e.pecheck_version) + "</tr>\n";
  out += "<tr><th>Compiler</th>" + td(e.compiler) + "</tr>\n";
  out += "<tr><th>Build type</th>" + td(e.build_type) + "</tr>\n";
  out += "<tr><th>Platform</th>" + td(e.platform) + "</tr>\n";
  out += "<tr><th>Hardware threads</th>" + td(std::to_string(e.hardware_threads)) + "</tr>\n";
  out += "</table>\n</section>\n";
}

}  // namespace

std::string write_html(const Report& report, const HtmlOptions& options) {
  std::string out =
      "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\"/>\n"
      // Nothing on this page may reach the network: no script, no fetch, no font.
      "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; style-src 'unsafe-inline'\"/>\n"
      "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\"/>\n<title>" +
      h(report_title(report)) + "</title>\n<style>" + style + "</style>\n</head>\n<body>\n";
  header(out, report, options);
  // A validation's verdict and diagnosis before anything else on its page.
  if (!report.validation_text.empty()) {
    out += "<section id=\"verdict\"><h2>Verdict and diagnosis</h2>\n<pre>" + h(report.validation_text) +
           "</pre>\n</section>\n";
  }
  contents(out, report);
  // The answers first, then the evidence in increasing detail. A
  // validation's page shows its figure (the error against position) right
  // under its verdict, before the checks.
  answers(out, report);
  if (!report.validation_text.empty()) figures(out, report);
  failures(out, report);
  findings(out, report);
  if (report.validation_text.empty()) figures(out, report);
  accuracy(out, report);
  performance(out, report);
  checks(out, report);
  notes(out, report);
  environment(out, report);
  out += "</body>\n</html>\n";
  return out;
}

}  // namespace pecheck::reports
