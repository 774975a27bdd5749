// The checks of the scaling-variance family, one definition per check beside its body; the family's
// registration (scaling_variance.cpp) puts them in the report's order.
// Private to properties/src.
#pragma once

#include "pecheck/properties/check_definition.hpp"

namespace pecheck::properties::scaling {

extern const CheckDefinition scaled_second_moment_check;   // scaling_moments.cpp
extern const CheckDefinition closed_form_variance_check;   // scaling_scale_factor.cpp
extern const CheckDefinition sampled_variance_check;       // scaling_moments.cpp
extern const CheckDefinition energy_ratio_check;           // scaling_moments.cpp
extern const CheckDefinition recoverability_check;         // scaling_recoverability.cpp
extern const CheckDefinition recovery_sweep_check;         // scaling_recovery_sweep.cpp
extern const CheckDefinition attention_logit_check;        // scaling_attention.cpp
extern const CheckDefinition tied_logit_check;             // scaling_attention.cpp
extern const CheckDefinition scale_factor_check;           // scaling_scale_factor.cpp
extern const CheckDefinition logit_decomposition_check;    // scaling_logit_decomposition.cpp
extern const CheckDefinition initialisation_check;         // scaling_initialisation.cpp
extern const CheckDefinition vocabulary_statistics_check;  // scaling_vocabulary.cpp

}  // namespace pecheck::properties::scaling
