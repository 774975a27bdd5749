// The checks of the add-vs-concat family, one maker per check; the family's
// registration (add_vs_concat.cpp) puts them in the report's order.
// Private to properties/src.
#pragma once

#include "pecheck/properties/check.hpp"

namespace pecheck::properties::add_vs_concat {

Check construction_check();         // add_vs_concat.cpp
Check linearity_check();            // add_vs_concat.cpp
Check strictness_check();           // add_vs_concat_geometry.cpp
Check near_orthogonality_check();   // add_vs_concat_geometry.cpp
Check column_energy_check();        // add_vs_concat_columns.cpp
Check subspace_check();             // add_vs_concat_subspace.cpp

}  // namespace pecheck::properties::add_vs_concat
