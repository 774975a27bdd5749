// Assembles a Finding from a report's outcomes: looks statistics up by check
// and name, records each one used as evidence with its source, and says
// plainly when a check did not run or did not apply.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "pecheck/reports/report_model.hpp"

namespace pecheck::reports::detail {

class FindingBuilder {
 public:
  FindingBuilder(const Report& report, std::string id, std::string question);

  // The value of the first statistic of `check_id` whose name starts with
  // `name_prefix` (the families prefix names with the format and may end
  // them with the sweep's size); recorded as evidence under `label`.
  // With `last`, the last such statistic (a sweep's largest width).
  std::optional<double> use(std::string_view check_id, std::string_view name_prefix, const std::string& label,
                            bool last = false);
  void evidence(std::string label, std::string value, std::string source);
  // The full name of the statistic the last successful use() found ("" if none).
  const std::string& last_statistic_name() const { return last_name_; }

  // Every check of a family as evidence (verdict and cases); returns how
  // many of them ran (held or failed).
  int family_evidence(properties::Family family);
  // "The 4 add-vs-concat checks held on 12345 generated cases and sweeps in
  // all." or which failed.
  std::string family_summary(properties::Family family) const;

  // "<id> held on N cases", "<id> did not run", "<id> not applicable: <message>", "<id> failed: <message>".
  std::string status(std::string_view check_id) const;

  void paragraph(std::string text) { finding_.answer.push_back(std::move(text)); }
  void supported(std::string text) { finding_.supported.push_back(std::move(text)); }
  void unsupported(std::string text) { finding_.unsupported.push_back(std::move(text)); }

  Finding finish() { return std::move(finding_); }

 private:
  const Report& report_;
  Finding finding_;
  std::string last_name_;
};

}  // namespace pecheck::reports::detail
