// The rotary family's order in the report; each check is defined beside its
// body (rotary_checks.hpp).
#include "check_families.hpp"
#include "rotary_checks.hpp"

namespace pecheck::properties {

const CheckDefinitions& rotary_checks() {
  static const CheckDefinitions checks = {
      &rotary::relative_position_check,
      &rotary::pair_norm_check,
      &rotary::add_concat_rotate_check,
      &rotary::rotated_pair_norm_check,
      &rotary::rotated_relative_position_check,
  };
  return checks;
}

}  // namespace pecheck::properties
