// Assembles a Finding from a report's outcomes: looks statistics up by check
// and typed key, records each one used as evidence with its source, and says
// plainly when a check did not run or did not apply.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "pecheck/reports/report_model.hpp"

namespace pecheck::reports::detail {

class FindingBuilder {
 public:
  FindingBuilder(const Report& report, std::string id, std::string question);

  // The value of the statistic `check_id` filed under `key`, recorded as
  // evidence under `label`. Absent when the check did not run or did not
  // apply (status() says which), or failed before filing it; a check that held, or observed, without
  // yielding `key` throws properties::MissingStatistic: a renamed or dropped
  // statistic fails the report and its tests instead of vanishing from it.
  std::optional<double> use(std::string_view check_id, const properties::StatisticKey& key, const std::string& label);
  // As use(), the whole statistic (its spread and closed form too); null where use() is absent.
  const properties::Statistic* use_statistic(std::string_view check_id, const properties::StatisticKey& key,
                                             const std::string& label);
  // As use(), for the statistic of `quantity` in `format` at the largest
  // width d the check measured it at (a sweep over d).
  std::optional<double> use_widest(std::string_view check_id, properties::Quantity quantity, FormatId format,
                                   const std::string& label);
  // As use_statistic(), for the first statistic of `quantity` whose key
  // `matches` (the fields the finding chooses: a format, a scale); the
  // sentence then prints the sizes it was measured at (d, P, d_k, V) from
  // last_key(), so a changed constant in a check changes the sentence.
  const properties::Statistic* use_matching(std::string_view check_id, properties::Quantity quantity,
                                            const std::function<bool(const properties::StatisticKey&)>& matches,
                                            const std::string& label);
  // The keys of every statistic of `quantity` the check filed (none when it
  // did not run or did not apply): a finding picks the sizes it quotes (the
  // shortest and longest context measured, say) from these, not from constants.
  std::vector<properties::StatisticKey> keys_of(std::string_view check_id, properties::Quantity quantity) const;
  void evidence(std::string label, std::string value, std::string source);
  // The key of the statistic the last successful use() found.
  const properties::StatisticKey& last_key() const { return last_key_; }

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
  // The check when it ran to a verdict (held, info or failed); null when it
  // is absent, was not run or did not apply.
  const CheckResult* measured(std::string_view check_id) const;
  // Null for a failed check; throws MissingStatistic for one that held or observed.
  const properties::Statistic* missing(const CheckResult& check, const std::string& what) const;
  const properties::Statistic* record(const CheckResult& check, const properties::Statistic& statistic,
                                      const std::string& label);

  properties::StatisticKey last_key_;
};

}  // namespace pecheck::reports::detail
