#include "pecheck/properties/registry.hpp"

#include <algorithm>
#include <exception>

#include "check_families.hpp"
#include "pecheck/count_text.hpp"

namespace pecheck::properties {

const Registry& all_checks() {
  static const Registry registry = [] {
    Registry all;
    for (const CheckDefinitions* family : {&encoding_bounds_checks(), &scaling_variance_checks(),
                                           &add_vs_concat_checks(), &conformance_checks(), &rotary_checks()}) {
      for (const CheckDefinition* definition : *family) all.push_back(make_check(*definition));
    }
    return all;
  }();
  return registry;
}

const Check* find_check(std::string_view id) {
  for (const Check& check : all_checks()) {
    if (check.id == id) return &check;
  }
  return nullptr;
}

Outcome run_check(const Check& check, const Subject& subject, const RunConfig& config) {
  Outcome outcome;
  try {
    outcome = check.run(subject, config);
  } catch (const std::exception& e) {
    outcome.verdict = Verdict::failed;
    outcome.message = std::string("the subject could not be checked: ") + e.what();
  }
  outcome.check_id = check.id;
  outcome.subject = subject.name();
  // An observation asserts nothing a fault can break: what it measured is
  // shown, never called "held".
  if (outcome.verdict == Verdict::held && check.role == CheckRole::observation) outcome.verdict = Verdict::info;
  if (outcome.verdict == Verdict::held && outcome.cases < std::max<std::int64_t>(config.min_cases, 1)) {
    outcome.verdict = Verdict::not_run;
    outcome.message = "not run: " + count_of(outcome.cases, "case") + ", fewer than the " +
                      std::to_string(std::max<std::int64_t>(config.min_cases, 1)) +
                      " a pass needs (RC_PARAMS max_success or the sweep gave none)" +
                      (outcome.message.empty() ? "" : "; " + outcome.message);
  }
  // The replay command must name the subject it failed on; `pecheck check`
  // offers the built-in ones (third-party subjects print their own command).
  if (!outcome.reproduce_command.empty() && (outcome.subject == "fast" || outcome.subject == "reference")) {
    outcome.reproduce_command += " --subject " + outcome.subject;
  }
  return outcome;
}

std::string_view to_string(Verdict verdict) {
  switch (verdict) {
    case Verdict::held: return "held";
    case Verdict::failed: return "failed";
    case Verdict::not_applicable: return "not applicable";
    case Verdict::not_run: return "not run";
    case Verdict::info: return "info";
  }
  return "?";
}

std::string_view to_string(Family family) {
  switch (family) {
    case Family::encoding_bounds: return "encoding-bounds";
    case Family::scaling_variance: return "scaling-variance";
    case Family::add_vs_concat: return "add-vs-concat";
    case Family::conformance: return "conformance";
    case Family::rotary: return "rotary";
    case Family::training: return "training";
  }
  return "?";
}

std::string_view to_string(CheckRole role) {
  switch (role) {
    case CheckRole::claim: return "claim";
    case CheckRole::observation: return "observation";
  }
  return "?";
}

std::string_view to_string(CheckKind kind) {
  switch (kind) {
    case CheckKind::property: return "property";
    case CheckKind::measurement: return "measurement";
  }
  return "?";
}

}  // namespace pecheck::properties
