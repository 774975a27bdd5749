// An independent high-precision evaluation for lib's own tests, in GCC's
// 113-bit __float128 (libquadmath), so lib's tests need neither Boost nor the
// reference. It follows the formula, not the fast path's design: the
// frequency straight from expq/logq, the entry from sinq/cosq of p w.
//
// Its own error, for the ULP figures: expq/logq/sinq/cosq are within an ulp
// or so of 2^-112; the exponent x = -(k/m) ln(num/den) has |x| <= 9.3 for the
// presets, so w carries about 2^-108.8 relative error and the angle p w an
// absolute one of 2^-108.8 p w <= 2^-84.8 (p < 2^24, w <= 1).
#pragma once

#include <quadmath.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <string>

#include "pecheck/convention.hpp"

namespace pecheck::testing {

__extension__ typedef __float128 Quad;

// pi to quad precision, as the sum of three doubles (159 bits; the well-known
// expansion of pi, rounded once to quad by the sum). M_PIq is not used: its Q
// suffix is a GNU extension that -Wpedantic reports even inside a pragma.
inline Quad quad_pi() {
  return static_cast<Quad>(0x1.921fb54442d18p+1) + static_cast<Quad>(0x1.1a62633145c07p-53) +
         static_cast<Quad>(-0x1.f1976b7ed8fbcp-109);
}

// The angular frequency w of a term, to about 2^-108.8 relative.
inline Quad quad_frequency(const FrequencyTerm& term) {
  const Quad log_ratio = logq(static_cast<Quad>(term.log_numerator)) - logq(static_cast<Quad>(term.log_denominator));
  const Quad x = -(static_cast<Quad>(term.k) / static_cast<Quad>(term.m)) * log_ratio;
  return static_cast<Quad>(term.multiplier) * expq(x) / static_cast<Quad>(term.divisor);
}

// The exact value of an entry whose column holds `kind` of frequency w, at an
// integer position.
inline Quad quad_entry(ColumnKind kind, Quad w, std::int64_t position) {
  const Quad angle = static_cast<Quad>(position) * w;
  switch (kind) {
    case ColumnKind::sin: return sinq(angle);
    case ColumnKind::cos: return cosq(angle);
    case ColumnKind::zero: return 0;
  }
  return 0;
}

// An upper bound on the reference's own absolute error for that entry (see
// the header comment), generous by a factor of about 4.
inline double quad_entry_error_bound(Quad w, std::int64_t position) {
  const double angle = std::fabs(static_cast<double>(position) * static_cast<double>(w));
  return std::ldexp(angle, -107) + std::ldexp(1.0, -110);
}

// Precision and smallest normal exponent of each format checked here.
struct LocalFormat {
  const char* name;
  int precision;
  int min_exponent;
};
inline constexpr LocalFormat local_float64{"float64", 53, -1022};
inline constexpr LocalFormat local_float32{"float32", 24, -126};
inline constexpr LocalFormat local_float16{"float16", 11, -14};
inline constexpr LocalFormat local_bfloat16{"bfloat16", 8, -126};

// The ulp of the format at the exact value's binade, floored at the smallest
// subnormal (SLEEF's definition). A local copy until the shared metric in
// ulp.hpp is implemented; the tests here only meet finite values.
inline Quad quad_ulp(Quad exact, const LocalFormat& format) {
  const int binade = exact == 0 ? format.min_exponent : std::max(ilogbq(exact), format.min_exponent);
  return ldexpq(1, binade - (format.precision - 1));
}

inline double ulp_error(double computed, Quad exact, const LocalFormat& format) {
  return static_cast<double>(fabsq(static_cast<Quad>(computed) - exact) / quad_ulp(exact, format));
}

inline std::string quad_text(Quad x) {
  char buffer[64];
  quadmath_snprintf(buffer, sizeof buffer, "%.36Qe", x);
  return buffer;
}

}  // namespace pecheck::testing
