// The encoding-bounds family: what the mathematics of the sinusoidal encoding
// promises about any table, checked on a subject. Each check is defined
// beside its body (encoding_checks.hpp); this is their order in the report.
#include "check_families.hpp"
#include "encoding_checks.hpp"

namespace pecheck::properties {

const CheckDefinitions& encoding_bounds_checks() {
  using namespace encoding;
  static const CheckDefinitions checks = {
      &unit_interval_check, &pythagorean_identity_check,   &squared_norm_check,     &origin_check,
      &zero_rows_check,     &relative_position_check,      &frequency_ladder_check, &distinct_positions_check,
      &slow_columns_check,  &constant_columns_exact_check,
  };
  return checks;
}

}  // namespace pecheck::properties
