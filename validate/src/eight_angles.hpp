// atan2 of eight (sin, cos) pairs at once: the frequency estimates take
// about a million angles of a table, and the library's atan2, one call an
// angle, was most of their time.
//
// Not the library's bits: within a few ULP of atan2, where the estimates fit
// lines through thousands of angles whose own noise is at least an ULP of 1
// of the table's format. eight_angles_test measures it against MPFR, 1.84
// ULP at most on 200000 points of the unit circle, and holds it to 4 ULP,
// about twice that. Pairs that are zero, subnormal, infinite or NaN go to
// std::atan2 itself.
//
// The method. For a = |sin|, b = |cos|, t = min(a, b) / max(a, b) in [0, 1];
// with c = k / 8 the nearest eighth,
//   atan t = atan c + atan z,  z = (t - c) / (1 + t c),  |z| <= 1/16,
// where t - c is exact (Sterbenz: c / 2 <= t <= 2 c once k >= 1; t itself
// when k = 0) and the denominator is within 2u of itself, so z is within
// about 3u relative of its value. atan z = z - z^3/3 + ... - z^13/13 + T,
// |T| <= |z|^15 / 15 < 2^-62 |z| (an alternating series with falling
// terms). Then pi/2 - r when a > b, pi - r when cos < 0, and sin's sign.
// Where the few ULP come from: the quotient t and z each round (about an ULP
// of the result between them), the library's atan(k / 8) is within an ULP,
// pi / 2 and pi within half of one, and each of the last three sums rounds.
#pragma once

#include <array>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <numbers>

namespace pecheck::validate {

using EightDoubles = std::array<double, 8>;

// Arrays in and out: a vector of eight doubles passed by value would take a
// calling convention that depends on the target's vector width.
inline EightDoubles eight_angles(const EightDoubles& sin_in, const EightDoubles& cos_in) {
  using Doubles = double __attribute__((vector_size(64)));
  using Bits = std::uint64_t __attribute__((vector_size(64)));
  using Lanes = std::int64_t __attribute__((vector_size(64)));
  static const std::array<double, 9> atan_eighths = [] {
    std::array<double, 9> table{};
    for (std::size_t k = 0; k < table.size(); ++k) table[k] = std::atan(static_cast<double>(k) / 8.0);
    return table;
  }();
  constexpr std::uint64_t sign_bit = 0x8000000000000000ULL;
  Doubles sin;
  Doubles cos;
  std::memcpy(&sin, sin_in.data(), sizeof sin);
  std::memcpy(&cos, cos_in.data(), sizeof cos);
  const Doubles a = reinterpret_cast<Doubles>(reinterpret_cast<Bits>(sin) & ~sign_bit);
  const Doubles b = reinterpret_cast<Doubles>(reinterpret_cast<Bits>(cos) & ~sign_bit);
  const Lanes swapped = a > b;
  const Doubles num = swapped ? b : a;
  const Doubles den = swapped ? a : b;
  // Normal, finite and not both zero: the method's range.
  const Lanes usual = (den >= 0x1p-1000) & (den <= 0x1.fffffffffffffp1023);
  const Doubles t = num / (usual ? den : Doubles{} + 1.0);
  // The nearest eighth (ties to even: either is within 1/16), by adding and
  // subtracting 1.5 * 2^52, and its arctangent picked lane by lane without
  // a branch or a gather (outside the usual range t may be anything: the
  // lane is recomputed below).
  const Doubles eighths = ((8.0 * t) + 0x1.8p52) - 0x1.8p52;
  const Doubles c = eighths * 0.125;
  Doubles atan_c{};
  for (std::size_t k = 1; k < atan_eighths.size(); ++k) {
    atan_c = eighths == static_cast<double>(k) ? Doubles{} + atan_eighths[k] : atan_c;
  }
  const Doubles z = (t - c) / (1.0 + t * c);
  const Doubles z2 = z * z;
  // atan z = z - z^3 s, s = 1/3 - z^2/5 + z^4/7 - ... - z^10/13 by Horner's rule.
  Doubles s = Doubles{} + (-1.0 / 13.0);
  for (const double coefficient : {1.0 / 11.0, -1.0 / 9.0, 1.0 / 7.0, -1.0 / 5.0, 1.0 / 3.0}) {
    s = coefficient + z2 * s;
  }
  Doubles r = atan_c + (z - z * z2 * s);
  r = swapped ? std::numbers::pi / 2.0 - r : r;
  r = cos < 0.0 ? std::numbers::pi - r : r;
  r = reinterpret_cast<Doubles>(reinterpret_cast<Bits>(r) | (reinterpret_cast<Bits>(sin) & sign_bit));
  EightDoubles angles;
  std::memcpy(angles.data(), &r, sizeof r);
  for (std::size_t j = 0; j < 8; ++j) {
    if (!usual[j]) angles[j] = std::atan2(sin_in[j], cos_in[j]);
  }
  return angles;
}

}  // namespace pecheck::validate
