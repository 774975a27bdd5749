// Runs a RapidCheck property and captures what reports need: the verdict,
// cases run, the shrunk counterexample, the seed and the reproduce string.
#pragma once

#include <rapidcheck.h>

#include "rapidcheck/detail/TestListenerAdapter.h"

#include <stdexcept>
#include <string>

#include "pecheck/properties/check.hpp"

namespace pecheck::properties {

// Throws RcParamsError, naming the variable, when RC_PARAMS is set but
// RapidCheck cannot read it. Call it before any property runs: RapidCheck's
// own reading of a malformed RC_PARAMS ends the process with status 1, which
// a caller would take for a failed check rather than for bad input.
struct RcParamsError : std::invalid_argument {
  using std::invalid_argument::invalid_argument;
};
void require_readable_rc_params();

namespace detail {
Outcome outcome_from_result(const std::string& check_id, const rc::detail::TestResult& result,
                            const rc::detail::TestParams& params);
rc::detail::TestParams params_for(const RunConfig& config);
// config.reproduce's map when set; else RC_PARAMS's when the config honours it; else an empty one.
std::unordered_map<std::string, rc::detail::Reproduce> reproduce_map(const RunConfig& config);
}  // namespace detail

// `testable` is any RapidCheck testable (a callable whose arguments are
// generated, or one that calls *gen inside). The metadata id is the check id,
// so RC_PARAMS="reproduce=..." replays a failure of that check.
template <typename Testable>
Outcome run_property(const std::string& check_id, const RunConfig& config, Testable&& testable) {
  rc::detail::TestMetadata metadata;
  metadata.id = check_id;
  metadata.description = check_id;
  const rc::detail::TestParams params = detail::params_for(config);
  rc::detail::TestListenerAdapter listener;  // quiet: the Outcome carries everything
  const auto result = rc::detail::checkProperty(rc::detail::toProperty(std::forward<Testable>(testable)), metadata,
                                                params, listener, detail::reproduce_map(config));
  return detail::outcome_from_result(check_id, result, params);
}

}  // namespace pecheck::properties
