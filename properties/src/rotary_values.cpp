#include "pecheck/properties/rotary_values.hpp"

#include <cmath>
#include <numbers>

#include "pecheck/reference/nearest_rounding.hpp"
#include "pecheck/rotary_frequency.hpp"

namespace pecheck::properties {

namespace {

// The arithmetic rotary_inv_freq() is written against: double, each result
// rounded to `format` when one is given (an operation of two float32 values
// done in double and rounded once is correctly rounded: double carries more
// than 2 * 24 + 2 bits; pow is within a double ULP, so its float32 result is
// correctly rounded except within 2^-29 ULP of a tie).
struct DoubleArithmetic {
  using Value = double;
  std::optional<FormatId> format;
  double round(double x) const { return format ? round_to_format(x, format_of(*format)) : x; }
  Value number(double x) const { return round(x); }
  Value integer(std::int64_t n) const { return round(static_cast<double>(n)); }
  Value add(Value a, Value b) const { return round(a + b); }
  Value sub(Value a, Value b) const { return round(a - b); }
  Value mul(Value a, Value b) const { return round(a * b); }
  Value div(Value a, Value b) const { return round(a / b); }
  Value pow(Value a, Value b) const { return round(std::pow(a, b)); }
  Value two_pi() const { return round(2.0 * std::numbers::pi); }
  bool greater(Value a, Value b) const { return a > b; }
  bool less(Value a, Value b) const { return a < b; }
};

}  // namespace

std::vector<double> rotary_inv_freqs(const RotaryConvention& convention, std::optional<FormatId> format) {
  const RotaryDerived derived = rotary_derived(convention);
  // A narrower format than float32 holds a buffer computed in float32 and
  // then cast (a module's .to(torch.bfloat16)): step by step in float16, a
  // base of 500000 would already overflow.
  const bool narrow = format && format_of(*format).precision < format_of(FormatId::float32).precision;
  DoubleArithmetic arithmetic{narrow ? std::optional<FormatId>(FormatId::float32) : format};
  std::vector<double> inv_freq(static_cast<std::size_t>(derived.frequencies));
  for (std::int64_t i = 0; i < derived.frequencies; ++i) {
    const double w = rotary_inv_freq(convention, derived, i, arithmetic);
    inv_freq[static_cast<std::size_t>(i)] = narrow ? round_to_format(w, format_of(*format)) : w;
  }
  return inv_freq;
}

RotaryValues rotary_values(const RotaryConvention& convention, const std::vector<std::int64_t>& positions,
                           const RotaryComputation& computation, double attention_factor) {
  const std::vector<double> inv_freq = rotary_inv_freqs(convention, computation.inv_freq);
  RotaryValues values;
  values.frequencies = static_cast<std::int64_t>(inv_freq.size());
  values.cos.reserve(positions.size() * inv_freq.size());
  values.sin.reserve(positions.size() * inv_freq.size());
  for (std::int64_t p : positions) {
    double position = static_cast<double>(p);
    // round_nearest: round_to_format by the bits where it can (the same
    // values; validate's computation hazards take ten computations of 512
    // rows, where the generic rounding was a tenth of the stage).
    if (computation.position) position = reference::round_nearest(position, format_of(*computation.position));
    for (double w : inv_freq) {
      // Exact when both factors have at most 26 significant bits (float32
      // positions and inv_freq); otherwise within half a double ULP.
      double angle = position * w;
      if (computation.angle) angle = reference::round_nearest(angle, format_of(*computation.angle));
      values.cos.push_back(attention_factor * std::cos(angle));
      values.sin.push_back(attention_factor * std::sin(angle));
    }
  }
  return values;
}

}  // namespace pecheck::properties
