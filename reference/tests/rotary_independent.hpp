// Rotary entries evaluated independently of the oracle's Ziv machinery: the
// frequency rule (rotary_frequency.hpp, the one statement of it) in
// Boost.Multiprecision's high-level syntax at about 1330 bits, the entry
// a cos(p w) there, and independent_oracle.hpp's own rounding.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <utility>

#include <boost/math/constants/constants.hpp>

#include "independent_oracle.hpp"
#include "pecheck/rotary_convention.hpp"
#include "pecheck/rotary_frequency.hpp"

namespace pecheck::testing {

// Every operation at HighReal's precision: the rule's result within about
// 2^-1320 relative, far below any rounding boundary a test meets.
struct HighArithmetic {
  using Value = HighReal;
  static Value number(double x) { return Value(x); }
  static Value integer(std::int64_t n) { return Value(n); }
  static Value add(const Value& x, const Value& y) { return x + y; }
  static Value sub(const Value& x, const Value& y) { return x - y; }
  static Value mul(const Value& x, const Value& y) { return x * y; }
  static Value div(const Value& x, const Value& y) { return x / y; }
  static Value pow(const Value& x, const Value& y) { return boost::multiprecision::pow(x, y); }
  static Value two_pi() { return 2 * boost::math::constants::pi<Value>(); }
  static bool less(const Value& x, const Value& y) { return x < y; }
  static bool greater(const Value& x, const Value& y) { return x > y; }
};

inline HighReal independent_inv_freq(const RotaryConvention& convention, std::int64_t i) {
  use_decimal_digits(400);
  HighArithmetic arithmetic;
  return rotary_inv_freq(convention, rotary_derived(convention), i, arithmetic);
}

// The same, kept once per (convention name, i) for a test that asks many
// times: pow at 1330 bits is slow.
inline HighReal cached_independent_inv_freq(const RotaryConvention& convention, std::int64_t i) {
  static std::map<std::pair<std::string, std::int64_t>, HighReal> cache;
  const auto key = std::pair{convention.name, i};
  auto found = cache.find(key);
  if (found == cache.end()) found = cache.emplace(key, independent_inv_freq(convention, i)).first;
  return found->second;
}

// attention_factor * cos(p w_i) (or sin), the exact encoding.
inline HighReal independent_rotary_value(const RotaryConvention& convention, std::int64_t position, std::int64_t i,
                                         bool cosine) {
  const HighReal theta = independent_inv_freq(convention, i) * position;
  const HighReal a(rotary_derived(convention).attention_factor);
  return a * (cosine ? HighReal(cos(theta)) : HighReal(sin(theta)));
}

// The model's entry from its binary angle and its rounded attention factor.
inline HighReal independent_model_value(double angle, double rounded_factor, bool cosine) {
  use_decimal_digits(400);
  const HighReal theta(angle);
  return HighReal(rounded_factor) * (cosine ? HighReal(cos(theta)) : HighReal(sin(theta)));
}

}  // namespace pecheck::testing
