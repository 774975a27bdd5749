// RapidCheck generators of doubles built from bit patterns, aimed at the
// places where rounding a double to a narrower format goes wrong: the
// exponents at the format's underflow, subnormal and overflow boundaries, and
// fractions whose dropped bits sit exactly at, just under or just over half
// a unit of the kept ones (ties and near-ties). gen::arbitrary<double>()
// never yields those, nor NaN, infinities, signed zeros or subnormals.
#pragma once

#include <rapidcheck.h>

#include <algorithm>
#include <bit>
#include <cstdint>
#include <vector>

#include "pecheck/format.hpp"

namespace pecheck::test_support {

// Unbiased exponents at which rounding to `format` changes regime.
inline std::vector<int> critical_exponents(const Format& format) {
  const int p = format.precision;
  const int emin = format.min_exponent;
  const int emax = format.max_exponent;
  return {
      emin - p,      // half the smallest subnormal: the last tie that rounds to zero
      emin - p + 1,  // the smallest subnormal
      emin - 1,      // the largest subnormals
      emin,          // the smallest normal
      -1, 0,         // around 1, where the encoding's values live
      emax,          // the largest finite and the overflow threshold
      emax + 1,      // beyond the format: overflow
  };
}

// The 11-bit exponent field of a double.
inline rc::Gen<std::uint64_t> gen_exponent_field(const Format& format) {
  const std::vector<int> critical = critical_exponents(format);
  const auto to_field = [](int exponent) {
    return static_cast<std::uint64_t>(std::clamp(exponent + 1023, 0, 2047));
  };
  return rc::gen::weightedOneOf<std::uint64_t>({
      {6, rc::gen::apply([to_field](int exponent, int offset) { return to_field(exponent + offset); },
                         rc::gen::elementOf(critical), rc::gen::inRange(-2, 3))},
      {3, rc::gen::map(rc::gen::inRange(format.min_exponent - format.precision - 3, format.max_exponent + 3),
                       to_field)},
      {1, rc::gen::inRange<std::uint64_t>(0, 2048)},
      {1, rc::gen::element(std::uint64_t{0}, std::uint64_t{2047})},  // zeros/subnormals, infinities/NaNs
  });
}

// The 52-bit fraction of a double: random kept bits above a rounding position
// `dropped` bits up, and below it a tail shaped as a tie or a near-tie. The
// position is the format's own (normal results) or higher (subnormal
// results drop more bits), or anywhere.
inline rc::Gen<std::uint64_t> gen_fraction(const Format& format) {
  const int normal_dropped = std::max(53 - format.precision, 1);
  constexpr std::uint64_t fraction_mask = (std::uint64_t{1} << 52) - 1;
  const auto shaped = [fraction_mask](std::uint64_t kept, int dropped, int tail_kind, std::uint64_t noise) {
    const std::uint64_t half = std::uint64_t{1} << (dropped - 1);
    const std::uint64_t below = (std::uint64_t{1} << dropped) - 1;
    std::uint64_t tail = 0;
    switch (tail_kind) {
      case 0: tail = 0; break;                  // exactly representable
      case 1: tail = half; break;               // exact tie
      case 2: tail = half - 1; break;           // just under the tie
      case 3: tail = half + 1; break;           // just over the tie
      case 4: tail = below; break;              // just under the next value
      default: tail = noise & below; break;     // anywhere
    }
    return ((kept << dropped) | tail) & fraction_mask;
  };
  return rc::gen::weightedOneOf<std::uint64_t>({
      {8, rc::gen::apply(shaped, rc::gen::arbitrary<std::uint64_t>(),
                         rc::gen::weightedOneOf<int>({{3, rc::gen::just(normal_dropped)},
                                                      {2, rc::gen::inRange(normal_dropped, 53)},
                                                      {1, rc::gen::inRange(1, 53)}}),
                         rc::gen::inRange(0, 6), rc::gen::arbitrary<std::uint64_t>())},
      {1, rc::gen::element(std::uint64_t{0}, fraction_mask, std::uint64_t{1} << 51)},
      {1, rc::gen::map(rc::gen::arbitrary<std::uint64_t>(), [](std::uint64_t b) { return b & fraction_mask; })},
  });
}

// Any double, NaNs and infinities included, weighted toward `format`'s edges.
inline rc::Gen<double> gen_double_near(const Format& format) {
  return rc::gen::apply(
      [](bool negative, std::uint64_t exponent_field, std::uint64_t fraction) {
        const std::uint64_t sign = negative ? std::uint64_t{1} << 63 : 0;
        return std::bit_cast<double>(sign | (exponent_field << 52) | fraction);
      },
      rc::gen::arbitrary<bool>(), gen_exponent_field(format), gen_fraction(format));
}

// A batch of them: a property that compares against the hardware checks
// many inputs per case for the price of one (RapidCheck runs 100 cases by
// default), and still shrinks a failing element.
inline rc::Gen<std::vector<double>> gen_doubles_near(const Format& format, std::size_t count) {
  return rc::gen::container<std::vector<double>>(count, gen_double_near(format));
}

}  // namespace pecheck::test_support
