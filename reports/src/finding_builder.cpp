#include "finding_builder.hpp"

#include "report_text.hpp"
#include "text_format.hpp"
#include "pecheck/count_text.hpp"

namespace pecheck::reports::detail {

FindingBuilder::FindingBuilder(const Report& report, std::string id, std::string question) : report_(report) {
  finding_.id = std::move(id);
  finding_.question = std::move(question);
}

const CheckResult* FindingBuilder::measured(std::string_view check_id) const {
  const CheckResult* check = find_check_result(report_, check_id);
  if (check == nullptr) return nullptr;
  const properties::Verdict verdict = check->outcome.verdict;
  const bool measured = verdict == properties::Verdict::held || verdict == properties::Verdict::info ||
                        verdict == properties::Verdict::failed;
  return measured ? check : nullptr;
}

// A check that held (or observed) carries every statistic it files; one that
// failed may have stopped before some (a subject that threw).
const properties::Statistic* FindingBuilder::missing(const CheckResult& check, const std::string& what) const {
  if (check.outcome.verdict == properties::Verdict::failed) return nullptr;
  throw properties::MissingStatistic(check.id + " " + std::string(properties::to_string(check.outcome.verdict)) +
                                     " but yielded no statistic " + what + ": finding " + finding_.id +
                                     " would drop the number");
}

const properties::Statistic* FindingBuilder::record(const CheckResult& check, const properties::Statistic& statistic,
                                                    const std::string& label) {
  std::string value = value_cell_text(statistic);
  if (statistic.lower_bound || statistic.upper_bound) {
    value += within_bounds(statistic) ? " (within " : " (OUTSIDE ";
    value += bounds_text(statistic) + ")";
  }
  if (check.outcome.verdict == properties::Verdict::failed) value += " (check failed)";
  evidence(label, value, check.id + ": " + statistic.name);
  last_key_ = statistic.key;
  return &statistic;
}

const properties::Statistic* FindingBuilder::use_statistic(std::string_view check_id,
                                                           const properties::StatisticKey& key,
                                                           const std::string& label) {
  const CheckResult* check = measured(check_id);
  if (check == nullptr) return nullptr;
  const properties::Statistic* found = properties::find_statistic(check->outcome, key);
  if (found == nullptr) found = missing(*check, properties::to_string(key));
  return found == nullptr ? nullptr : record(*check, *found, label);
}

std::optional<double> FindingBuilder::use(std::string_view check_id, const properties::StatisticKey& key,
                                          const std::string& label) {
  const properties::Statistic* found = use_statistic(check_id, key, label);
  return found == nullptr ? std::nullopt : std::optional<double>(found->value);
}

std::optional<double> FindingBuilder::use_widest(std::string_view check_id, properties::Quantity quantity,
                                                 FormatId format, const std::string& label) {
  const CheckResult* check = measured(check_id);
  if (check == nullptr) return std::nullopt;
  const properties::Statistic* widest = nullptr;
  for (const properties::Statistic& statistic : check->outcome.statistics) {
    if (statistic.key.quantity != quantity || statistic.key.format != format) continue;
    if (widest == nullptr || statistic.key.dim > widest->key.dim) widest = &statistic;
  }
  if (widest == nullptr) {
    widest = missing(*check, properties::to_string(properties::per_format(quantity, format)) + " at any width");
  }
  if (widest == nullptr) return std::nullopt;
  return record(*check, *widest, label)->value;
}

const properties::Statistic* FindingBuilder::use_matching(
    std::string_view check_id, properties::Quantity quantity,
    const std::function<bool(const properties::StatisticKey&)>& matches, const std::string& label) {
  const CheckResult* check = measured(check_id);
  if (check == nullptr) return nullptr;
  for (const properties::Statistic& statistic : check->outcome.statistics) {
    if (statistic.key.quantity == quantity && matches(statistic.key)) return record(*check, statistic, label);
  }
  return missing(*check, std::string(properties::to_string(quantity)) + " where " + label);
}

std::vector<properties::StatisticKey> FindingBuilder::keys_of(std::string_view check_id,
                                                              properties::Quantity quantity) const {
  std::vector<properties::StatisticKey> keys;
  if (const CheckResult* check = measured(check_id)) {
    for (const properties::Statistic& statistic : check->outcome.statistics) {
      if (statistic.key.quantity == quantity) keys.push_back(statistic.key);
    }
  }
  return keys;
}

void FindingBuilder::evidence(std::string label, std::string value, std::string source) {
  finding_.evidence.push_back({std::move(label), std::move(value), std::move(source)});
}

int FindingBuilder::family_evidence(properties::Family family) {
  int ran = 0;
  for (const CheckResult& check : report_.checks) {
    if (check.family != family) continue;
    ran += check.outcome.verdict != properties::Verdict::not_applicable;
    evidence(check.claim,
             std::string(properties::to_string(check.outcome.verdict)) + ", " + count_of(check.outcome.cases, "case"),
             check.id);
  }
  return ran;
}

std::string FindingBuilder::family_summary(properties::Family family) const {
  int count = 0;
  std::int64_t cases = 0;
  std::string failed, not_applicable;
  for (const CheckResult& check : report_.checks) {
    if (check.family != family) continue;
    ++count;
    cases += check.outcome.cases;
    if (properties::spoils_a_pass(check.outcome.verdict)) failed += (failed.empty() ? "" : ", ") + check.id;
    if (check.outcome.verdict == properties::Verdict::not_applicable) {
      not_applicable += (not_applicable.empty() ? "" : ", ") + check.id;
    }
  }
  const std::string name(properties::to_string(family));
  std::string text = "In this run the " + std::to_string(count) + " " + name + " " + noun_for(count, "check") +
                     " ran " + count_of(cases, "generated case") + " and swept entries";
  if (failed.empty()) {
    text += " and held";
  } else {
    text += "; these failed or were not run, so the argument is not confirmed for this subject: " + failed;
  }
  if (!not_applicable.empty()) text += " (not applicable to the subject: " + not_applicable + ")";
  return text + ".";
}

std::string FindingBuilder::status(std::string_view check_id) const {
  const CheckResult* check = find_check_result(report_, check_id);
  if (check == nullptr) return std::string(check_id) + " did not run";
  const std::string verdict(properties::to_string(check->outcome.verdict));
  if (check->outcome.verdict == properties::Verdict::held) {
    return std::string(check_id) + " held on " + count_of(check->outcome.cases, "case");
  }
  return std::string(check_id) + " " + verdict + ": " + check->outcome.message;
}

}  // namespace pecheck::reports::detail
