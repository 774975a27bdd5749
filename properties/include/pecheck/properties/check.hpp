// A check: one claim about a subject, with its family, its source, how it
// runs and the faults it catches. Each is defined in one place, beside its
// body (check_definition.hpp); the registry makes a Check of each. The same
// registered check runs under GoogleTest (ctest), under `pecheck report` and
// under `pecheck validate`.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "pecheck/properties/outcome.hpp"
#include "pecheck/subject.hpp"

namespace pecheck::properties {

// `training` is registered only where libtorch was found (training/): it
// trains small models, so `pecheck report` runs it on request (--training).
enum class Family { encoding_bounds, scaling_variance, add_vs_concat, conformance, rotary, training };

enum class CheckKind {
  property,     // for all generated inputs the claim holds (RapidCheck generates and shrinks)
  measurement,  // a deterministic sweep yielding statistics against a budget
};

// Whether a check asserts something a broken subject can violate.
enum class CheckRole {
  claim,        // its definition names a fault it catches, and the fault matrix test proves it
  observation,  // it measures and shows, but no fault fails it: "info", never "held"
};

// How hard to look. RC_PARAMS overrides the seed and the case count of
// properties (RapidCheck's own configuration), so a printed failure replays.
struct RunConfig {
  std::uint64_t seed = 0x5eed'2017'0612ULL;  // fixed default: nothing is seeded from the clock
  int max_cases = 100;                       // RapidCheck max_success
  int max_size = 100;
  bool quick = false;                        // smaller sweeps (report --quick)
  bool full = false;                         // larger sweeps (report --full)
  bool honour_rc_params = true;              // take seed and counts from RC_PARAMS when set
  // Fewer cases (generated cases, or swept entries) than this and the check
  // is "not run", never "held": a claim tried on nothing was not shown.
  std::int64_t min_cases = 1;
  // A failed property's Outcome::reproduce string: when set, properties run
  // that one (shrunk) case alone, e.g. to record what it asked a subject for.
  std::string reproduce;
};

struct Check {
  std::string id;      // "encoding-bounds/unit-interval"
  Family family;
  std::string claim;   // one sentence, the same the report prints
  std::string source;  // paper section, the report's question it answers, public issue
  CheckKind kind;
  std::function<Outcome(const Subject&, const RunConfig&)> run;
  CheckRole role = CheckRole::claim;           // derived from `catches`: none makes an observation
  std::string short_claim = {};                // the claim in a few lowerCamel words (check_test_name)
  std::vector<std::string_view> catches = {};  // fault names (fault_names.hpp) that must fail it
};

// The GoogleTest name of a check: the id's last part and its short claim,
// "unit_interval_everyValueLiesInMinusOneToOne".
std::string check_test_name(const Check& check);

std::string_view to_string(Family family);
std::string_view to_string(CheckKind kind);
std::string_view to_string(CheckRole role);

}  // namespace pecheck::properties
