// The scaling-variance family: why token embeddings are multiplied by
// sqrt(d) before the encoding is added, and whether that cancels attention's
// 1/sqrt(d_k). The checks are defined beside their bodies in scaling_*.cpp;
// this is their order in the report.
#include "check_families.hpp"
#include "scaling_checks.hpp"

namespace pecheck::properties {

const CheckDefinitions& scaling_variance_checks() {
  using namespace scaling;
  static const CheckDefinitions checks = {
      &scale_factor_check,    &scaled_second_moment_check, &closed_form_variance_check, &sampled_variance_check,
      &energy_ratio_check,    &initialisation_check,       &recoverability_check,       &recovery_sweep_check,
      &attention_logit_check, &logit_decomposition_check,  &tied_logit_check,           &vocabulary_statistics_check,
  };
  return checks;
}

}  // namespace pecheck::properties
