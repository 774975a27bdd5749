#include <gtest/gtest.h>

#include "pecheck/reports/escape.hpp"
#include "pecheck/reports/writers.hpp"
#include "support/sample_report.hpp"
#include "support/xml_parse.hpp"

namespace pecheck::reports {
namespace {

// pecheck writes the page as polyglot markup, so the strict XML checker
// parses all of it: a hostile string that broke out of its element would
// show up as an element or a parse error.
testing::XmlElement page(const HtmlOptions& options = {}) {
  return testing::parse_xml(write_html(testing::sample_report(), options));
}

void expect_no_active_content(const testing::XmlElement& element) {
  for (const char* name : {"script", "iframe", "object", "embed", "link", "img", "base", "form", "foreignObject"}) {
    EXPECT_NE(element.name, name);
  }
  for (const auto& [name, value] : element.attributes) {
    EXPECT_NE(name.rfind("on", 0), 0u) << "event handler " << name;
    EXPECT_EQ(value.find("javascript:"), std::string::npos);
    const bool svg_namespace = name == "xmlns" && value == "http://www.w3.org/2000/svg";
    if (!svg_namespace) {
      EXPECT_EQ(value.find("//"), std::string::npos) << name << "=" << value;
    }
  }
  for (const testing::XmlElement& child : element.children) expect_no_active_content(child);
}

TEST(HtmlWriter, isWellFormedAndHasNoActiveOrExternalContent) {
  const testing::XmlElement root = page();
  EXPECT_EQ(root.name, "html");
  expect_no_active_content(root);
}

TEST(HtmlWriter, forbidsNetworkAccessInItsContentSecurityPolicy) {
  bool found = false;
  const testing::XmlElement root = page();
  for (const testing::XmlElement* meta : root.all("meta")) {
    const std::string* policy = meta->attribute("content");
    if (meta->attribute("http-equiv") && policy)
      found = found || policy->find("default-src 'none'") != std::string::npos;
  }
  EXPECT_TRUE(found);
}

TEST(HtmlWriter, drawsEveryFigureInline) {
  const Report report = testing::sample_report();
  const testing::XmlElement root = page();
  const auto figures = root.all("figure");
  ASSERT_EQ(figures.size(), report.figures.size());
  for (const testing::XmlElement* figure : figures) {
    EXPECT_EQ(figure->all("svg").size(), 1u);
    EXPECT_EQ(figure->all("figcaption").size(), 1u);
  }
}

TEST(HtmlWriter, hostileStringsAreTextNotMarkup) {
  const std::string text = page().all_text();
  EXPECT_NE(text.find("Falsifiable after 7 tests: <script>alert(\"x&y\")</script>"), std::string::npos);
  EXPECT_NE(text.find("\\x00\\x01\\x1b\\x7f"), std::string::npos);
}

TEST(HtmlWriter, everyCheckHasARowAndDetails) {
  const Report report = testing::sample_report();
  const testing::XmlElement root = page();
  // One folded check each (its statistics inside), each finding's argument,
  // each accuracy table's budget sources and the performance references.
  EXPECT_EQ(root.all("details").size(),
            report.checks.size() + report.findings.size() + report.accuracy.size() + (report.performance ? 1u : 0u));
  const std::string text = root.all_text();
  for (const CheckResult& check : report.checks) {
    EXPECT_NE(text.find(check.claim.substr(0, 10)), std::string::npos) << check.id;
  }
}

TEST(HtmlWriter, notesSayWhatCouldNotBeComputed) {
  const testing::XmlElement root = page();
  bool found = false;
  for (const testing::XmlElement* section : root.all("section")) {
    const std::string* id = section->attribute("id");
    found = found || (id && *id == "notes" && section->all_text().find("vaswani/float16") != std::string::npos);
  }
  EXPECT_TRUE(found);
}

TEST(HtmlWriter, performanceSectionJudgesEachFigure) {
  const std::string html = write_html(testing::sample_report(), {});
  const std::size_t section = html.find("<section id=\"performance\">");
  ASSERT_NE(section, std::string::npos);
  const std::string body = html.substr(section, html.find("</section>", section) - section);
  for (const char* figure : {"pe_table_f32", "pe_table_f16", "pe_table_bf16", "rope_cache_f32", "embed_forward",
                             "reference_f32", "reference_f64"}) {
    EXPECT_NE(body.find(figure), std::string::npos) << figure;
  }
  // A missed target is information about the machine, grey, never a red failure.
  EXPECT_NE(body.find("<span class=\"na\">missed</span>"), std::string::npos);
  EXPECT_EQ(body.find("class=\"failed\""), std::string::npos);
  EXPECT_NE(body.find("90 entries escalated to MPFR"), std::string::npos);
  EXPECT_EQ(write_html(Report{}, {}).find("id=\"performance\""), std::string::npos);
}

// Each figure's numbers in the table beside it (label and value), the caption under both.
TEST(HtmlWriter, aFiguresNumbersAreInTheTableBesideIt) {
  const Report report = testing::sample_report();
  const std::string html = write_html(report, {});
  for (const Figure& figure : report.figures) {
    const std::size_t at = html.find("<figure id=\"figure-" + figure.id + "\">");
    ASSERT_NE(at, std::string::npos) << figure.id;
    const std::string body = html.substr(at, html.find("</figure>", at) - at);
    const std::size_t caption = body.find("<figcaption>");
    ASSERT_NE(caption, std::string::npos);
    EXPECT_EQ(body.find("<table class=\"figure-numbers\">") != std::string::npos, !figure.numbers.empty()) << figure.id;
    // A row per label, a column per place on the x axis.
    for (const FigureNumber& number : figure.numbers) {
      const std::size_t header = body.find("<th>" + escape_html(number.column.empty() ? "Value" : number.column) + "</th>");
      const std::size_t row = body.find("<tr><td>" + escape_html(number.label) + "</td>");
      ASSERT_LT(header, row) << figure.id << ": " << number.column;
      ASSERT_LT(row, caption) << figure.id << ": " << number.label;
      const std::string cells = body.substr(row, body.find("</tr>", row) - row);
      EXPECT_NE(cells.find("<td class=\"num\">" + escape_html(number.text) + "</td>"), std::string::npos)
          << figure.id << ": " << number.label << " " << number.column;
    }
  }
}

// The Answers say each answer once; under Findings an answered finding refers
// to it (a link, a heading that is not the question) and folds its argument.
TEST(HtmlWriter, findingsReferToTheAnswersRatherThanRepeatThem) {
  const Report report = testing::sample_report();
  const std::string html = write_html(report, {});
  const std::size_t start = html.find("<section id=\"findings\">");
  ASSERT_NE(start, std::string::npos);
  const std::string findings = html.substr(start, html.find("</section>", start) - start);
  bool any_answered = false;
  for (const Finding& finding : report.findings) {
    if (finding.short_answer.empty()) {
      EXPECT_NE(findings.find("<h3>" + escape_html(finding.question) + "</h3>"), std::string::npos);
      continue;
    }
    any_answered = true;
    EXPECT_NE(html.find("id=\"answer-" + finding.id + "\""), std::string::npos);
    EXPECT_NE(findings.find("href=\"#answer-" + finding.id + "\""), std::string::npos);
    for (const std::string& said : {finding.question, finding.short_answer, finding.key_figure, finding.caveat}) {
      EXPECT_EQ(findings.find(escape_html(said)), std::string::npos) << "said twice: " << said;
    }
    // The argument itself, folded under this finding's own details.
    const std::size_t own = findings.find("id=\"finding-" + finding.id + "\"");
    const std::size_t paragraph = findings.find(escape_html(finding.answer.front()));
    ASSERT_NE(paragraph, std::string::npos);
    EXPECT_GT(paragraph, findings.find("<details>", own));
  }
  EXPECT_TRUE(any_answered);
}

TEST(HtmlWriter, dateOnlyWhenAsked) {
  EXPECT_EQ(page().all_text().find("1970-01-02"), std::string::npos);
  HtmlOptions options;
  options.date = "1970-01-02";
  EXPECT_NE(page(options).all_text().find("1970-01-02"), std::string::npos);
}

TEST(HtmlWriter, sameReportSameBytes) {
  EXPECT_EQ(write_html(testing::sample_report()), write_html(testing::sample_report()));
}

// The title says what was checked: the count, the subject and the families
// of the checks the report holds, not the subject's bare name.
TEST(HtmlWriter, titleSaysWhatWasChecked) {
  const Report report = testing::sample_report();
  const std::string html = write_html(report, {});
  const std::string title = "pecheck report: " + std::to_string(report.checks.size()) +
                            (report.checks.size() == 1 ? " check of " : " checks of ");
  EXPECT_NE(html.find("<h1>" + title), std::string::npos);
  for (const CheckResult& check : report.checks) {
    EXPECT_NE(html.find(std::string(properties::to_string(check.family))), std::string::npos) << check.id;
  }
}

// A validation's page: its verdict and diagnosis first, then its figures,
// then the failed checks and the rest.
TEST(HtmlWriter, aValidationShowsItsVerdictThenItsFigureThenTheChecks) {
  Report report = testing::sample_report();
  report.validation_text = "pe.npy: deviates\n  hazard angle-precision: grows with the position\n";
  const std::string html = write_html(report, {});
  const std::size_t verdict = html.find("<section id=\"verdict\">");
  const std::size_t figures = html.find("<section id=\"figures\">");
  const std::size_t checks = html.find("<section id=\"checks\">");
  ASSERT_NE(verdict, std::string::npos);
  EXPECT_NE(html.find("hazard angle-precision", verdict), std::string::npos);
  EXPECT_LT(verdict, html.find("<nav>"));
  if (!report.figures.empty()) {
    EXPECT_LT(verdict, figures);
    EXPECT_LT(figures, html.find("<section id=\"failures\">"));
  }
  EXPECT_LT(verdict, checks);
  EXPECT_EQ(write_html(testing::sample_report(), {}).find("id=\"verdict\""), std::string::npos);
}

}  // namespace
}  // namespace pecheck::reports
