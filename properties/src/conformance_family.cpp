// The conformance family's order in the report: one sweep per format, then
// the two that span positions.
#include "check_families.hpp"
#include "conformance_checks.hpp"

namespace pecheck::properties {

const CheckDefinitions& conformance_checks() {
  static const CheckDefinitions checks = {
      &conformance_float64_check,  &conformance_float32_check, &conformance_float16_check,
      &conformance_bfloat16_check, &any_position_check,        &accuracy_by_position_definition,
  };
  return checks;
}

}  // namespace pecheck::properties
