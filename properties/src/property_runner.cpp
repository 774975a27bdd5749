#include "pecheck/properties/property_runner.hpp"

#include <cstdlib>
#include <sstream>

#include "rapidcheck/detail/Configuration.h"
#include "pecheck/count_text.hpp"

namespace pecheck::properties {

void require_readable_rc_params() {
  const char* text = std::getenv("RC_PARAMS");
  if (text == nullptr) return;
  try {
    // RapidCheck reads KEY=VALUE pairs and skips a word without '='
    // ("RC_PARAMS=garbage" configured nothing and passed): refused here.
    std::istringstream words(text);
    std::string word;
    bool quoted = false;  // inside a value in quotes, whose spaces do not separate pairs
    while (words >> word) {
      if (!quoted && (word.find('=') == std::string::npos || word.front() == '=')) {
        throw rc::detail::ConfigurationException("'" + word + "' is not KEY=VALUE");
      }
      for (const char c : word) quoted ^= (c == '"' || c == '\'');
    }
    const rc::detail::Configuration read = rc::detail::configFromString(text);
    if (read.testParams.maxSuccess < 0 || read.testParams.maxSize < 0) {
      throw rc::detail::ConfigurationException("max_success and max_size must not be negative");
    }
  } catch (const rc::detail::ConfigurationException& e) {
    throw RcParamsError(std::string("RC_PARAMS: cannot read \"") + text + "\": " + e.what());
  }
}

}  // namespace pecheck::properties

namespace pecheck::properties::detail {

namespace {

std::string reproduce_string(const std::string& check_id, const rc::detail::Reproduce& reproduce) {
  rc::detail::Configuration config;
  config.reproduce[check_id] = reproduce;
  return rc::detail::configToMinimalString(config);
}

// Whether RC_PARAMS is set. Only then is RapidCheck's configuration read:
// loading it prints "Using configuration: seed=N" to stderr, and without
// RC_PARAMS that N is a fresh random seed that pecheck does not use (its
// seed is RunConfig's), so the line would name the wrong seed.
bool rc_params_given() { return std::getenv("RC_PARAMS") != nullptr; }

// Whether RC_PARAMS names `key` ("seed=42 max_success=1000"). RapidCheck
// draws a random seed when RC_PARAMS gives none, so its configured seed alone
// cannot tell a chosen seed from a random one.
bool rc_params_set(const std::string& key) {
  const char* text = std::getenv("RC_PARAMS");
  if (text == nullptr) return false;
  std::istringstream words(text);
  std::string word;
  while (words >> word) {
    if (word.rfind(key + "=", 0) == 0) return true;
  }
  return false;
}

}  // namespace

rc::detail::TestParams params_for(const RunConfig& config) {
  rc::detail::TestParams params;
  params.seed = config.seed;
  params.maxSuccess = config.max_cases;
  params.maxSize = config.max_size;
  if (config.honour_rc_params && rc_params_given()) {
    // RC_PARAMS, when set, overrides seed and counts: a printed failure replays.
    const rc::detail::TestParams& configured = rc::detail::configuration().testParams;
    const rc::detail::TestParams defaults;
    if (rc_params_set("seed")) params.seed = configured.seed;  // else the fixed default: nothing from the clock
    if (configured.maxSuccess != defaults.maxSuccess) params.maxSuccess = configured.maxSuccess;
    if (configured.maxSize != defaults.maxSize) params.maxSize = configured.maxSize;
    params.disableShrinking = configured.disableShrinking;
  }
  return params;
}

std::unordered_map<std::string, rc::detail::Reproduce> reproduce_map(const RunConfig& config) {
  if (!config.reproduce.empty()) return rc::detail::configFromString(config.reproduce).reproduce;
  if (config.honour_rc_params && rc_params_given()) return rc::detail::configuration().reproduce;
  return {};
}

Outcome outcome_from_result(const std::string& check_id, const rc::detail::TestResult& result,
                            const rc::detail::TestParams& params) {
  Outcome outcome;
  outcome.check_id = check_id;
  outcome.seed = params.seed;
  rc::detail::SuccessResult success;
  rc::detail::FailureResult failure;
  rc::detail::GaveUpResult gave_up;
  rc::detail::Error error;
  if (result.match(success)) {
    outcome.verdict = Verdict::held;
    outcome.cases = success.numSuccess;
    for (const auto& [tags, count] : success.distribution) {
      std::string label;
      for (const std::string& tag : tags) label += (label.empty() ? "" : ", ") + tag;
      outcome.distribution.emplace_back(label, count);
    }
    outcome.message = "held on " + count_of(success.numSuccess, "generated case");
  } else if (result.match(failure)) {
    outcome.verdict = Verdict::failed;
    outcome.cases = failure.numSuccess + 1;
    outcome.message = failure.description;
    outcome.counterexample = failure.counterExample;
    outcome.reproduce = reproduce_string(check_id, failure.reproduce);
    outcome.reproduce_command = "RC_PARAMS=\"" + outcome.reproduce + "\" pecheck check " + check_id;
  } else if (result.match(gave_up)) {
    outcome.verdict = Verdict::failed;
    outcome.cases = gave_up.numSuccess;
    outcome.message = "gave up: " + gave_up.description;
  } else if (result.match(error)) {
    outcome.verdict = Verdict::failed;
    outcome.message = "RapidCheck error: " + error.description;
  }
  return outcome;
}

}  // namespace pecheck::properties::detail
