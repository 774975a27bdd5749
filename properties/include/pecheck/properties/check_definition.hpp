// One place per check: its id, claim, source, kind, the faults it catches and
// its body, defined together beside the body, in the spirit of RC_GTEST_PROP:
//
//   Outcome unit_interval(const Subject& subject, const RunConfig& config) { ... }
//
//   const CheckDefinition unit_interval_check{
//       .id = check_ids::unit_interval,
//       .family = Family::encoding_bounds,
//       .short_claim = "everyValueLiesInMinusOneToOne",
//       .claim = "Every value of the encoding table lies in [-1, 1]: no NaN, no infinity.",
//       .source = "Vaswani et al. 2017, section 3.5",
//       .kind = CheckKind::property,
//       .catches = {faults::random_init},
//       .run = unit_interval,
//   };
//
// Each family exports its definitions in the report's order and the registry
// concatenates the families explicitly (no static self-registration, which a
// static library could drop). The fault matrix is these `catches` lists
// inverted; a definition that catches nothing is an observation.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "pecheck/properties/check.hpp"
#include "pecheck/properties/check_ids.hpp"
#include "pecheck/properties/fault_names.hpp"

namespace pecheck::properties {

struct CheckDefinition {
  std::string_view id;  // a check_ids.hpp constant
  Family family;
  // The claim in a few lowerCamel words; with the id's last part it names the
  // check's GoogleTest cases (check_test_name), so a failing test says what broke.
  std::string_view short_claim;
  std::string claim;   // one sentence, the same the report prints
  std::string source;  // paper section, the report's question it answers, public issue
  CheckKind kind;
  // The faults (fault_names.hpp) that must fail this check while the correct
  // fast subject passes it; the fault matrix test proves each. None: the
  // check is an observation, shown as "info", never as "held".
  std::vector<std::string_view> catches;
  Outcome (*run)(const Subject&, const RunConfig&);
};

// One family's definitions, in the report's order.
using CheckDefinitions = std::vector<const CheckDefinition*>;

// The registered Check of a definition, its role derived from `catches`.
Check make_check(const CheckDefinition& definition);

}  // namespace pecheck::properties
