// The add-vs-concat family's order in the report; each check is defined
// beside its body (add_vs_concat_checks.hpp).
#include "add_vs_concat_checks.hpp"
#include "check_families.hpp"

namespace pecheck::properties {

const CheckDefinitions& add_vs_concat_checks() {
  using namespace add_vs_concat;
  static const CheckDefinitions checks = {
      &construction_check,       &linearity_check,     &strictness_check,
      &near_orthogonality_check, &column_energy_check, &subspace_check,
  };
  return checks;
}

}  // namespace pecheck::properties
