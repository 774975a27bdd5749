#include "finding_builder.hpp"

#include "report_text.hpp"
#include "text_format.hpp"
#include "pecheck/count_text.hpp"

namespace pecheck::reports::detail {

FindingBuilder::FindingBuilder(const Report& report, std::string id, std::string question) : report_(report) {
  finding_.id = std::move(id);
  finding_.question = std::move(question);
}

std::optional<double> FindingBuilder::use(std::string_view check_id, std::string_view name_prefix,
                                          const std::string& label, bool last) {
  const CheckResult* check = find_check_result(report_, check_id);
  if (check == nullptr) return std::nullopt;
  const properties::Statistic* found = nullptr;
  for (const properties::Statistic& statistic : check->outcome.statistics) {
    if (statistic.name.rfind(name_prefix, 0) != 0) continue;
    found = &statistic;
    if (!last) break;
  }
  if (found != nullptr) {
    const properties::Statistic& statistic = *found;
    std::string value = significant(statistic.value, 6);
    if (statistic.lower_bound || statistic.upper_bound) {
      value += within_bounds(statistic) ? " (within " : " (OUTSIDE ";
      value += bounds_text(statistic) + ")";
    }
    if (check->outcome.verdict == properties::Verdict::failed) value += " (check failed)";
    evidence(label, value, std::string(check_id) + ": " + statistic.name);
    last_name_ = statistic.name;
    return statistic.value;
  }
  return std::nullopt;
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
