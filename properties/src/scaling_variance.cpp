// The scaling-variance family: why token embeddings are multiplied by
// sqrt(d) before the encoding is added, and whether that cancels attention's
// 1/sqrt(d_k). The checks live in scaling_*.cpp; this is their order.
#include "pecheck/properties/registry.hpp"
#include "scaling_checks.hpp"

namespace pecheck::properties {

void register_scaling_variance(Registry& registry) {
  registry.push_back(scaling::scale_factor_check());
  registry.push_back(scaling::scaled_second_moment_check());
  registry.push_back(scaling::closed_form_variance_check());
  registry.push_back(scaling::sampled_variance_check());
  registry.push_back(scaling::energy_ratio_check());
  registry.push_back(scaling::initialisation_check());
  registry.push_back(scaling::recoverability_check());
  registry.push_back(scaling::recovery_sweep_check());
  registry.push_back(scaling::attention_logit_check());
  registry.push_back(scaling::logit_decomposition_check());
  registry.push_back(scaling::tied_logit_check());
  registry.push_back(scaling::vocabulary_statistics_check());
}

}  // namespace pecheck::properties
