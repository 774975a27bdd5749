// The ULP error metric, SLEEF-style.
//
// The error of a computed value is its distance to the exact value in units
// of the exact value's binade in the target format, floored at the smallest
// subnormal: ulp(x) = 2^(max(e(x), emin) - (precision - 1)), e(x) = floor(log2 |x|).
// Signed zeros, NaN and infinities are typed mismatches, never sentinel numbers.
#pragma once

#include <string_view>

#include "pecheck/double_double.hpp"
#include "pecheck/format.hpp"

namespace pecheck {

enum class Mismatch {
  none,            // both finite and nonzero or equal zeros: ulps is the error
  signed_zero,     // both zero with different signs (ulps is 0)
  nan,             // exactly one of computed and exact is NaN
  infinity,        // one side infinite and the other not, or opposite infinities
};

struct UlpError {
  Mismatch mismatch = Mismatch::none;
  double ulps = 0.0;  // meaningful when mismatch is none or signed_zero; infinity for nan and
                     // infinity, so that a max over ulps never hides a mismatch
};

// The unit in the last place of the format at the exact value's binade.
double ulp_of(DoubleDouble exact, const Format& format);

UlpError ulp_error(double computed, DoubleDouble exact, const Format& format);

// |computed - exact| as a double (infinity when either side is not finite).
double absolute_error(double computed, DoubleDouble exact);

std::string_view to_string(Mismatch mismatch);

}  // namespace pecheck
