// An exact value (a double-double, about 106 bits) in decimal, for the worst
// inputs a measurement prints.
#pragma once

#include <string>

#include "pecheck/double_double.hpp"

namespace pecheck::accuracy {

// `digits` significant digits, rounded half up: "-7.07106781186547524401e-01";
// "0", "-0", "nan", "inf", "-inf" for the special values.
std::string decimal_text(DoubleDouble value, int digits = 21);

}  // namespace pecheck::accuracy
