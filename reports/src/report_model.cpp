#include "pecheck/reports/report_model.hpp"


namespace pecheck::reports {

Summary summarize(const Report& report) {
  Summary summary;
  for (const CheckResult& check : report.checks) {
    ++summary.checks;
    switch (check.outcome.verdict) {
      case properties::Verdict::held: ++summary.held; break;
      case properties::Verdict::failed: ++summary.failed; break;
      case properties::Verdict::not_applicable: ++summary.not_applicable; break;
      case properties::Verdict::not_run: ++summary.not_run; break;
      case properties::Verdict::info: ++summary.info; break;
    }
  }
  return summary;
}

std::string summary_counts(const Summary& s) {
  std::string text = std::to_string(s.held) + " held, " + std::to_string(s.failed) + " failed, " +
                     std::to_string(s.not_applicable) + " not applicable";
  if (s.not_run > 0) text += ", " + std::to_string(s.not_run) + " not run";
  if (s.info > 0) text += ", " + std::to_string(s.info) + " info";
  return text;
}

bool all_held(const Report& report) {
  const Summary summary = summarize(report);
  return summary.failed == 0 && summary.not_run == 0;
}

std::string_view to_string(RunMode mode) {
  switch (mode) {
    case RunMode::quick: return "quick";
    case RunMode::standard: return "standard";
    case RunMode::full: return "full";
  }
  return "?";
}

std::string_view to_string(AxisScale scale) {
  switch (scale) {
    case AxisScale::linear: return "linear";
    case AxisScale::log: return "log";
  }
  return "?";
}

std::string_view to_string(SeriesStyle style) {
  switch (style) {
    case SeriesStyle::line: return "line";
    case SeriesStyle::points: return "points";
    case SeriesStyle::line_and_points: return "line-and-points";
  }
  return "?";
}

const CheckResult* find_check_result(const Report& report, std::string_view check_id) {
  for (const CheckResult& check : report.checks) {
    if (check.id == check_id) return &check;
  }
  return nullptr;
}

const properties::Statistic* find_statistic(const Report& report, std::string_view check_id, std::string_view name) {
  const CheckResult* check = find_check_result(report, check_id);
  if (check == nullptr) return nullptr;
  for (const properties::Statistic& statistic : check->outcome.statistics) {
    if (statistic.name == name) return &statistic;
  }
  return nullptr;
}

}  // namespace pecheck::reports
