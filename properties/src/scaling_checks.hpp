// The checks of the scaling-variance family, one maker per check; the family's
// registration (scaling_variance.cpp) puts them in the report's order.
// Private to properties/src.
#pragma once

#include "pecheck/properties/check.hpp"

namespace pecheck::properties::scaling {

Check scaled_second_moment_check();   // scaling_moments.cpp
Check closed_form_variance_check();   // scaling_scale_factor.cpp
Check sampled_variance_check();       // scaling_moments.cpp
Check energy_ratio_check();           // scaling_moments.cpp
Check recoverability_check();         // scaling_recoverability.cpp
Check recovery_sweep_check();         // scaling_recovery_sweep.cpp
Check attention_logit_check();        // scaling_attention.cpp
Check tied_logit_check();             // scaling_attention.cpp
Check scale_factor_check();           // scaling_scale_factor.cpp
Check logit_decomposition_check();    // scaling_logit_decomposition.cpp
Check initialisation_check();         // scaling_initialisation.cpp
Check vocabulary_statistics_check();  // scaling_vocabulary.cpp

}  // namespace pecheck::properties::scaling
