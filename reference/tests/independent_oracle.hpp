// An evaluation of encoding entries written independently of the reference:
// straight from the formulas of CONVENTIONS.md in Boost.Multiprecision's
// high-level syntax at a fixed high precision, with its own column mapping,
// its own rounding (floor of a scaled value, not MPFR's rounding) and its
// own neighbours in each format. Tests compare the oracle against this.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <string>

#include <boost/multiprecision/mpfr.hpp>

#include "pecheck/convention.hpp"
#include "pecheck/format.hpp"

namespace pecheck::testing {

using HighReal = boost::multiprecision::mpfr_float;

// Sets the precision of every HighReal created after it (Boost counts it in
// decimal digits: 160 digits ~ 532 bits, 302 digits ~ 1004 bits).
inline void use_decimal_digits(unsigned digits) { HighReal::default_precision(digits); }

// The formats, written out here rather than taken from lib.
inline const Format float64_format{FormatId::float64, "float64", 53, -1022, 1023, 64};
inline const Format float32_format{FormatId::float32, "float32", 24, -126, 127, 32};
inline const Format float16_format{FormatId::float16, "float16", 11, -14, 15, 16};
inline const Format bfloat16_format{FormatId::bfloat16, "bfloat16", 8, -126, 127, 16};
inline const Format* const all_formats[] = {&float64_format, &float32_format, &float16_format, &bfloat16_format};

struct IndependentColumn {
  ColumnKind kind = ColumnKind::zero;
  std::int64_t frequency = 0;
};

inline std::int64_t independent_sin_count(const Convention& convention, std::int64_t d) {
  return d / 2 + ((d % 2 == 1 && convention.odd_dim == OddDimPolicy::extra_sin) ? 1 : 0);
}

// The column table of CONVENTIONS.md ("The layouts").
inline IndependentColumn independent_column(const Convention& convention, std::int64_t d, std::int64_t c) {
  const std::int64_t pairs = d / 2;
  const std::int64_t sins = independent_sin_count(convention, d);
  switch (convention.layout) {
    case Layout::interleaved:
      if (c < 2 * pairs) return {c % 2 == 0 ? ColumnKind::sin : ColumnKind::cos, c / 2};
      if (sins > pairs) return {ColumnKind::sin, pairs};
      return {};
    case Layout::sin_cos_halves:
      if (c < sins) return {ColumnKind::sin, c};
      if (c < sins + pairs) return {ColumnKind::cos, c - sins};
      return {};
    case Layout::cos_sin_halves:
      if (c < pairs) return {ColumnKind::cos, c};
      if (c < pairs + sins) return {ColumnKind::sin, c - pairs};
      return {};
  }
  return {};
}

// omega_i from the table "The two frequency rules", and diffusers'
// get_timestep_embedding: scale exp(-ln(max_period) i / (floor(d/2) - shift)).
inline HighReal independent_frequency(const Convention& convention, std::int64_t d, std::int64_t i) {
  const FrequencyRule& rule = convention.frequency;
  if (rule.kind == FrequencyRuleKind::paper) {
    return pow(HighReal(rule.base), -HighReal(2 * i) / HighReal(d));
  }
  if (rule.kind == FrequencyRuleKind::timestep) {
    const HighReal exponent = -log(HighReal(rule.max_period)) * HighReal(i) / HighReal(d / 2 - rule.downscale_freq_shift);
    return HighReal(rule.scale) * exp(exponent);
  }
  const std::int64_t n = independent_sin_count(convention, d);
  const HighReal spacing = log(HighReal(rule.max_timescale) / HighReal(rule.min_timescale)) /
                           HighReal(std::max<std::int64_t>(n - 1, 1));
  return exp(-HighReal(i) * spacing) / HighReal(rule.min_timescale);
}

inline HighReal independent_value(const Convention& convention, std::int64_t d, std::int64_t row, std::int64_t col) {
  const IndependentColumn column = independent_column(convention, d, col);
  const bool zero_row =
      std::find(convention.zero_rows.begin(), convention.zero_rows.end(), row) != convention.zero_rows.end();
  if (zero_row || column.kind == ColumnKind::zero) return HighReal(0);
  // Row r holds position first + step * r (the step is -1 for relative encodings).
  const std::int64_t position = convention.position_offset + convention.position_step * row;
  const HighReal theta = HighReal(position) * independent_frequency(convention, d, column.frequency);
  if (column.kind == ColumnKind::sin) return HighReal(sin(theta));
  return HighReal(cos(theta));
}

// 2^(max(e, emin) - (p - 1)) for a value of binade e: the spacing of the format there.
inline int quantum_exponent(int binade, const Format& format) {
  return std::max(binade, format.min_exponent) - (format.precision - 1);
}

inline double largest_finite_value(const Format& format) {
  return std::ldexp(2.0 - std::ldexp(1.0, 1 - format.precision), format.max_exponent);
}

// Round to nearest, ties to even, by scaling to the quantum and taking floor.
inline double round_independently(const HighReal& x, const Format& format) {
  if (x == 0) return std::signbit(x.convert_to<double>()) ? -0.0 : 0.0;
  const bool negative = x < 0;
  const HighReal magnitude = abs(x);
  int exponent = 0;
  frexp(magnitude, &exponent);  // magnitude = m 2^exponent, 1/2 <= m < 1
  const int q = quantum_exponent(exponent - 1, format);
  const HighReal scaled = ldexp(magnitude, -q);
  HighReal units = floor(scaled);
  const HighReal fraction = scaled - units;
  const bool odd = fmod(units, HighReal(2)) == 1;
  if (fraction > 0.5 || (fraction == 0.5 && odd)) units += 1;
  double result = ldexp(units, q).convert_to<double>();  // at most 53 bits: exact
  if (result > largest_finite_value(format)) result = std::numeric_limits<double>::infinity();
  return negative ? -result : result;
}

// The next value of the format above r (r finite, representable).
inline double format_next_up(double r, const Format& format) {
  if (r < 0) return -[&] {
    // Below a negative r is the next value up of |r| mirrored, and vice versa.
    const double m = -r;
    int e = 0;
    std::frexp(m, &e);
    const int binade = e - 1;
    const bool power_of_two = m == std::ldexp(1.0, binade);
    const int q = (power_of_two && binade > format.min_exponent) ? quantum_exponent(binade - 1, format)
                                                                 : quantum_exponent(binade, format);
    return m - std::ldexp(1.0, q);
  }();
  if (r == 0) return std::ldexp(1.0, quantum_exponent(format.min_exponent, format));
  int e = 0;
  std::frexp(r, &e);
  const double up = r + std::ldexp(1.0, quantum_exponent(e - 1, format));
  return up > largest_finite_value(format) ? std::numeric_limits<double>::infinity() : up;
}

inline double format_next_down(double r, const Format& format) { return -format_next_up(-r, format); }

// Whether r has at most `precision` significant bits at its quantum and is in range.
inline bool representable_in(double r, const Format& format) {
  if (r == 0) return true;
  if (!std::isfinite(r) || std::fabs(r) > largest_finite_value(format)) return false;
  int e = 0;
  std::frexp(std::fabs(r), &e);
  const double units = std::ldexp(std::fabs(r), -quantum_exponent(e - 1, format));
  return units == std::floor(units);
}

// ulp(x) of the exact value's binade, floored at the smallest subnormal (ulp.hpp's definition).
inline HighReal ulp_at(const HighReal& x, const Format& format) {
  if (x == 0) return ldexp(HighReal(1), quantum_exponent(format.min_exponent, format));
  int exponent = 0;
  frexp(abs(x), &exponent);
  return ldexp(HighReal(1), quantum_exponent(exponent - 1, format));
}

// Empty when r is the correctly rounded value of x; otherwise what is wrong.
inline std::string rounding_failure(const HighReal& x, double r, const Format& format) {
  if (!representable_in(r, format)) return std::to_string(r) + " is not a " + std::string(format.name) + " value";
  const HighReal distance = abs(x - HighReal(r));
  if (distance > ulp_at(x, format) / 2) return "farther than half an ulp from the exact value";
  // Exact ties are impossible here (the values are transcendental), so the
  // neighbours must be strictly farther.
  for (double neighbour : {format_next_up(r, format), format_next_down(r, format)}) {
    if (std::isfinite(neighbour) && abs(x - HighReal(neighbour)) <= distance) {
      return "the neighbour " + std::to_string(neighbour) + " is at least as close";
    }
  }
  if (x == 0 && std::signbit(r)) return "an exact +0 came out as -0";
  return {};
}

}  // namespace pecheck::testing
