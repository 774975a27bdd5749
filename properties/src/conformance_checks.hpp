// The conformance family's check definitions, each beside its body; the
// family's order is conformance_family.cpp's. Private to properties/src.
#pragma once

#include "pecheck/properties/check_definition.hpp"

namespace pecheck::properties {

extern const CheckDefinition conformance_float64_check;        // conformance.cpp
extern const CheckDefinition conformance_float32_check;        // conformance.cpp
extern const CheckDefinition conformance_float16_check;        // conformance.cpp
extern const CheckDefinition conformance_bfloat16_check;       // conformance.cpp
extern const CheckDefinition any_position_check;               // conformance.cpp
extern const CheckDefinition accuracy_by_position_definition;  // accuracy_by_position.cpp

}  // namespace pecheck::properties
