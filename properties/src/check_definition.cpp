#include "pecheck/properties/check_definition.hpp"

namespace pecheck::properties {

Check make_check(const CheckDefinition& definition) {
  return Check{
      .id = std::string(definition.id),
      .family = definition.family,
      .claim = definition.claim,
      .source = definition.source,
      .kind = definition.kind,
      .run = definition.run,
      // Derived, so that the role and the faults a check catches cannot disagree.
      .role = definition.catches.empty() ? CheckRole::observation : CheckRole::claim,
      .short_claim = std::string(definition.short_claim),
      .catches = definition.catches,
  };
}

std::string check_test_name(const Check& check) {
  // The id's last part tells two checks with one claim apart (conformance/float64,
  // conformance/float32); GoogleTest names take letters, digits and '_' only.
  std::string name = check.id.substr(check.id.rfind('/') + 1);
  for (char& c : name) {
    if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9'))) c = '_';
  }
  return name + "_" + check.short_claim;
}

}  // namespace pecheck::properties
