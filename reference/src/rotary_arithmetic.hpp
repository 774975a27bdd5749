// The two MPFR arithmetics the rotary frequency rule (rotary_frequency.hpp)
// is evaluated in by the oracle, and the decision of a rounding from an
// enclosure.
#pragma once

#include <cstdint>
#include <optional>

#include "format_rounding.hpp"
#include "pecheck/double_double.hpp"
#include "pecheck/format.hpp"
#include "real.hpp"

namespace pecheck::reference {

// Working precisions double up to this; reaching it means a bug, since the
// values decided are irrational or exact.
inline constexpr mpfr_prec_t max_working_bits = mpfr_prec_t{1} << 16;

// Every operation rounded to nearest at `precision` bits: the exact rule up
// to a relative error the caller bounds (rotary_exact_frequency_error).
class NearestArithmetic {
 public:
  using Value = Real;
  explicit NearestArithmetic(mpfr_prec_t precision) : precision_(precision) {}
  Value number(double x) const;
  Value integer(std::int64_t n) const;
  Value add(const Value& x, const Value& y) const;
  Value sub(const Value& x, const Value& y) const;
  Value mul(const Value& x, const Value& y) const;
  Value div(const Value& x, const Value& y) const;
  Value pow(const Value& x, const Value& y) const;
  Value two_pi() const;
  static bool less(const Value& x, const Value& y) { return mpfr_less_p(raw(x), raw(y)) != 0; }
  static bool greater(const Value& x, const Value& y) { return mpfr_greater_p(raw(x), raw(y)) != 0; }

 private:
  mpfr_prec_t precision_;
};

// log2 of the relative error bound of NearestArithmetic's result at P bits,
// as an offset: |computed - exact| <= 2^(offset - P) |exact|. Derived in
// rotary_arithmetic.cpp.
inline constexpr int rotary_frequency_error_offset = 16;

// Every operation on format values correctly rounded to `format`, as a
// framework's tensors of that format round them (values are doubles that the
// format holds). A Python float or integer entering the tensor code is
// rounded to the format first, as a scalar operand of a float32 tensor is.
class FormatArithmetic {
 public:
  using Value = double;
  explicit FormatArithmetic(const Format& format) : format_(format) {}
  Value number(double x) const { return pecheck::round_to_format(x, format_); }
  Value integer(std::int64_t n) const { return pecheck::round_to_format(static_cast<double>(n), format_); }
  Value add(Value x, Value y) const;
  Value sub(Value x, Value y) const;
  Value mul(Value x, Value y) const;
  Value div(Value x, Value y) const;
  Value pow(Value x, Value y) const;
  Value two_pi() const;  // Python's 2 * math.pi (a double) rounded to the format
  static bool less(Value x, Value y) { return x < y; }
  static bool greater(Value x, Value y) { return x > y; }

 private:
  const Format& format_;
};

// The rounding of every value in [value - error, value + error] to `format`
// when they all round alike (rounding is monotone: the two ends decide),
// else nothing.
std::optional<double> decide_rounding(mpfr_srcptr value, mpfr_srcptr error, const Format& format);
// The nearest double-double (hi = RN(x), lo = RN(x - hi)) when the enclosure decides it.
std::optional<DoubleDouble> decide_exact_pair(mpfr_srcptr value, mpfr_srcptr error);

}  // namespace pecheck::reference
