// Each family's check definitions in the report's order; registry.cpp
// concatenates the families by explicit calls (a static library would drop
// self-registering initialisers). Private to properties/src.
#pragma once

#include "pecheck/properties/check_definition.hpp"

namespace pecheck::properties {

const CheckDefinitions& encoding_bounds_checks();   // encoding_bounds.cpp
const CheckDefinitions& scaling_variance_checks();  // scaling_variance.cpp
const CheckDefinitions& add_vs_concat_checks();     // add_vs_concat_family.cpp
const CheckDefinitions& conformance_checks();       // conformance_family.cpp
const CheckDefinitions& rotary_checks();            // rotary_family.cpp

}  // namespace pecheck::properties
