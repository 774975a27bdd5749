// Number and identifier formatting shared by the writers, the figure captions
// and the findings: fixed formats through snprintf, so the same value always
// prints the same bytes.
#pragma once

#include <cstdint>
#include <string>

#include "pecheck/number_text.hpp"

namespace pecheck::reports {

// lib's significant() ("%.<digits>g"), with "inf", "-inf" and "NaN" for
// non-finite values, as the reports spell them.
std::string significant(double value, int digits = 4);
// "%.<digits>e" ("3.52e-03"), non-finite as above.
std::string scientific(double value, int digits = 2);
// A ULP figure: four significant digits ("0.5012", "1.25", "0").
std::string ulps(double value);
// A fraction as a percentage with one decimal ("97.5%").
std::string percent(double fraction);
// "0x00005eed20170612": lib's, the one spelling of a seed.
using pecheck::hex64;

}  // namespace pecheck::reports
