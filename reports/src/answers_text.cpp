#include "pecheck/reports/answers_text.hpp"

#include "pecheck/text_wrap.hpp"

namespace pecheck::reports {

namespace {

// Under 100 characters, so a CI log or an 80-column terminal wraps nothing
// mid-word: the rule's width.
constexpr std::size_t box_width = 96;

}  // namespace

std::string answers_text(const Report& report) {
  std::string body;
  for (const Finding& finding : report.findings) {
    if (finding.short_answer.empty()) continue;
    body += "\n" + wrap_text(finding.question, box_width, "  ", "  ");
    body += wrap_text(finding.short_answer, box_width, "    ", "    ");
    if (!finding.key_figure.empty()) body += wrap_text("Key figure: " + finding.key_figure, box_width, "    ", "      ");
    if (!finding.caveat.empty()) body += wrap_text("Caveat: " + finding.caveat, box_width, "    ", "      ");
  }
  if (body.empty()) return "";
  const std::string rule(box_width, '=');
  return rule + "\nAnswers (report.html and report.md give the evidence)\n" + body + rule + "\n";
}

}  // namespace pecheck::reports
