// The checks of the add-vs-concat family, one definition per check beside its body; the family's
// registration (add_vs_concat.cpp) puts them in the report's order.
// Private to properties/src.
#pragma once

#include "pecheck/properties/check_definition.hpp"

namespace pecheck::properties::add_vs_concat {

extern const CheckDefinition construction_check;        // add_vs_concat.cpp
extern const CheckDefinition linearity_check;           // add_vs_concat.cpp
extern const CheckDefinition strictness_check;          // add_vs_concat_geometry.cpp
extern const CheckDefinition near_orthogonality_check;  // add_vs_concat_geometry.cpp
extern const CheckDefinition column_energy_check;       // add_vs_concat_columns.cpp
extern const CheckDefinition subspace_check;            // add_vs_concat_subspace.cpp

}  // namespace pecheck::properties::add_vs_concat
