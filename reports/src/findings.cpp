#include "pecheck/reports/findings.hpp"

#include "finding_parts.hpp"
#include "text_format.hpp"

namespace pecheck::reports {

namespace detail {

std::string measured_text(const properties::Statistic& s) {
  std::string text = s.spread ? significant(s.value, 3) + " \u00b1 " + significant(s.spread->standard_deviation, 2) +
                                    " over " + std::to_string(s.spread->draws) + " draws"
                              : significant(s.value, 4);
  if (s.closed_form) text += " (closed form " + significant(*s.closed_form, 3) + ")";
  return text;
}

std::string measured_percent(const properties::Statistic& s) {
  std::string text = s.spread ? significant(100 * s.value, 3) + " \u00b1 " +
                                    significant(100 * s.spread->standard_deviation, 2) + "% over " +
                                    std::to_string(s.spread->draws) + " draws"
                              : percent(s.value);
  if (s.closed_form) text += " (closed form " + significant(100 * *s.closed_form, 3) + "%)";
  return text;
}

}  // namespace detail

std::vector<Finding> write_findings(const Report& report, const FigureData& data) {
  std::vector<Finding> findings = {detail::why_scale(report, data), detail::does_it_cancel(report),
                                   detail::add_or_concat(report)};
  if (auto trained = detail::learning(report)) findings.push_back(std::move(*trained));
  return findings;
}

}  // namespace pecheck::reports
