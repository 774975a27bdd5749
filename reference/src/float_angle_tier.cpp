#include "float_angle_tier.hpp"

#include <bit>
#include <cmath>
#include <cstdint>

#include "enclosure_decision.hpp"

namespace pecheck::reference {

// The bound. u = 2^-53, RN round to nearest; a is an exact double with at
// most 24 significant bits and |a| <= 2^24.
//
// Reduction, a = k pi/2 + rho. k = nearest integer to RN(a T), T = RN(2/pi):
// |RN(a T) - a 2/pi| <= |a| (|T - 2/pi| + u 2/pi) < 2^24 2^-52 = 2^-28, so
// |rho| <= (pi/2)(1/2 + 2^-28) and |k| <= 2^24 (2/pi) + 1 < 2^24. pi/2 is
// C1 + C2 + C3 + delta with C1 and C2 of 29 significant bits (C1 a multiple
// of 2^-28, C2 of 2^-58), C3 = RN(pi/2 - C1 - C2), |delta| < 2^-114
// (computed with 300-bit arithmetic; the test holds the sum to MPFR's pi).
//   - k C1 and k C2 are exact (24 + 29 <= 53 bits).
//   - r1 = a - k C1 is exact: for k = 0 it is a; otherwise |a| >= 1/2 (else
//     |a 2/pi| + 2^-28 < 1/2 rounds to k = 0), so a, a float32 value, is a
//     multiple of 2^-24 and r1 a multiple of 2^-28 with
//     |r1| <= |rho| + |k| |C2 + C3 + delta| < 0.79 + 2^24 2^-29 < 1: at most
//     28 significant bits, a double.
//   - h + l = r1 - k C2 exactly (TwoSum).
//   - t3 = RN(k C3), e = RN(l - t3), y = RN(h + e). Then
//     rho = h + l - k C3 - k delta and
//     |y - rho| <= u |y| + u |e| + u |t3| + |k| 2^-114 =: E.
//
// Polynomials, z = RN(y^2), checked |y| <= Y = 0.7854 (which the above
// gives but the test of it is cheap), so y^2 <= 0.6169:
//   - sin y = y + y^3 P(y^2) + R_s, P the Taylor coefficients -1/3! .. 1/17!,
//     |R_s| <= |y|^19 / 19! <= |y| Y^18 / 19! < 2^-63 |y| (an alternating
//     series of decreasing terms). P by Horner with FMA (7 roundings) and
//     rounded coefficients: the terms alternate, sum |c_i| z^i <= 0.172
//     against |P| >= 1/6 - z/120 >= 0.161, so the computed P is within
//     (7u + u)(1 + 2^-40) 0.172/0.161 < 8.6u of P relative; z's own rounding
//     moves P by at most |P'| u z < 0.006u, and w = RN(z P) adds u and z's u:
//     w = y^2 P(y^2) (1 + theta), |theta| < 12u. s = RN(y + y w) (FMA):
//     |s - sin y| <= u |s| + 12u |y| y^2 |P| + 2^-63 |y| <= u |s| + 1.25u |y|,
//     and |y| <= |sin y| / 0.9 (sin Y / Y > 0.9), so
//     |s - sin y| <= 2.4u |s| (1 + 2^-50): taken as 4u |s| = 2^-51 |s|.
//   - cos y = 1 + y^2 Q(y^2) + R_c, Q the Taylor coefficients -1/2! .. 1/16!,
//     |R_c| <= Y^18 / 18! < 2^-58.7. The same count: Q within 9.6u relative
//     (sum |c_i| z^i <= 0.527 against |Q| >= 1/2 - z/24 >= 0.474), h = RN(z Q)
//     within 12u relative, |z Q| <= 0.309, so with c = RN(1 + h):
//     |c - cos y| <= u |c| + 3.71u + 2^-58.7 <= u |c| + 3.73u, and
//     cos y >= cos Y > 0.707 gives |c - cos y| <= 6.3u |c|: taken as
//     8u |c| = 2^-50 |c|.
//   - sin and cos are 1-Lipschitz: y against rho adds E to each.
//
// Quadrant, q = k mod 4: sin a = (s, c, -s, -c)[q], cos a = (c, -s, -c, s)[q]
// of rho, so each value's error is its polynomial's bound plus E. The
// attention factor f (an exact double; 1: none) is applied as the double
// tier does (double_tier.hpp): v = RN(f t), error |f| err + u |v|. Every
// bound is a sum of a few non-negative terms, each rounding within u, and
// the final factor 1 + 2^-50 covers them.
//
// Where the reduction loses relative accuracy (a within about 2^-40 of a
// multiple of pi/2, which the float32 angles below 2^24 may not even reach)
// E / |y| grows and within_relative refuses the entry: the other tiers take it.

namespace {

constexpr double two_over_pi = 0x1.45f306dc9c883p-1;
constexpr double c1 = float_angle_pi_half[0];
constexpr double c2 = float_angle_pi_half[1];
constexpr double c3 = float_angle_pi_half[2];
constexpr double delta_bound = 0x1p-114;
constexpr double u = 0x1p-53;
constexpr double max_reduced = 0.7854;
constexpr double sin_poly_bound = 0x1p-51;
constexpr double cos_poly_bound = 0x1p-50;
constexpr double bound_margin = 1.0 + 0x1p-50;
constexpr double float_min_normal = 0x1p-126;

// Taylor coefficients, each RN(+-1/n!).
constexpr double s3 = -1.0 / 6.0, s5 = 1.0 / 120.0, s7 = -1.0 / 5040.0, s9 = 1.0 / 362880.0,
                 s11 = -1.0 / 39916800.0, s13 = 1.0 / 6227020800.0, s15 = -1.0 / 1307674368000.0,
                 s17 = 1.0 / 355687428096000.0;
constexpr double k2 = -0.5, k4 = 1.0 / 24.0, k6 = -1.0 / 720.0, k8 = 1.0 / 40320.0, k10 = -1.0 / 3628800.0,
                 k12 = 1.0 / 479001600.0, k14 = -1.0 / 87178291200.0, k16 = 1.0 / 20922789888000.0;

}  // namespace

// The loops below are written for GCC's vectoriser, eight doubles a vector
// (AVX-512) or four (AVX2), with verdicts in 64-bit lanes:
//   - The float32 rounding is done on the bits (add half an ulp of float32
//     less one, plus the kept last bit, then clear the 29 dropped bits):
//     round to nearest even, the carry moving into the exponent as it
//     should, equal to the conversion to float in float32's normal range,
//     the only range whose angles fit. No float type in the loop (a type
//     narrower than 64 bits makes GCC look for more lanes, flagged_loop.hpp).
//   - No floating-point operation is under a condition: the quadrant's swap
//     and signs are selected on the bits. Written with ?:, GCC moved the
//     products into the branches, and since a product may trap (no
//     -ffast-math) it could not make them unconditional again: the AVX2
//     variant ran scalar (14.7 ns an angle against 4.0, rows of 64).
//   - Each verdict is taken on |s f| and |c f|, whichever of the row's
//     values the quadrant makes them (the sign flip is exact, so
//     |(+-s) f| = |s f|): no select of the errors.
//   - A factor of 1 (no attention scaling) multiplies nothing: x 1 = x
//     exactly (2.94 against 2.70 ns an angle, rows of 64, Zen 4).
//   - The angles and the values are two loops: one loop doing both, with
//     the same instructions, was slower (3.04 against 2.66 ns an angle on
//     rows of 64, Zen 4; 3.34 in blocks of eight; 4.36 against 3.98 for
//     AVX2), the longer chain from the load to the verdict likely the cause.
// Together, `pecheck validate` of a 65536 x 128 float32 llama3.1 cache
// (hf-float32 the model compared): 84.5, 84.5, 83.2 -> 80.2, 80.1, 79.2 ms
// of CPU (perf stat -r 10, alternated, load 1.6).
bool float_angles(double p, const double* inv_freq, std::size_t n, double* angles, std::int64_t* fits) {
  const double* __restrict w = inv_freq;
  double* __restrict out = angles;
  std::int64_t* __restrict usable = fits;
  constexpr std::uint64_t dropped = (std::uint64_t{1} << 29) - 1;  // float32 keeps 24 of double's 53 bits
  std::int64_t all = 1;
#pragma GCC ivdep
  for (std::size_t i = 0; i < n; ++i) {
    const double hi = p * w[i];
    const double lo = std::fma(p, w[i], -hi);
    const std::uint64_t bits = std::bit_cast<std::uint64_t>(hi);
    const std::uint64_t rounded = (bits + (dropped >> 1) + ((bits >> 29) & 1U)) & ~dropped;
    const double a = std::bit_cast<double>(rounded);
    const bool fit = (lo == 0.0) & ((std::fabs(hi) >= float_min_normal) | (hi == 0.0)) &
                     (std::fabs(a) <= float_angle_max);
    const std::uint64_t keep = -static_cast<std::uint64_t>(fit);
    out[i] = std::bit_cast<double>(rounded & keep);
    usable[i] = static_cast<std::int64_t>(keep & 1U);
    all &= usable[i];
  }
  return all != 0;
}

namespace {

// Entry i of float_angle_sin_cos; `unit` when factor is 1.
template <bool unit>
[[gnu::always_inline]] inline std::int64_t sin_cos_entry(double a, double factor, double factor_magnitude,
                                                         double tolerance, double& cos_out, double& sin_out) {
  constexpr double shifter = 0x1.8p52;
  const double shifted = a * two_over_pi + shifter;
  const double k = shifted - shifter;
  const double r1 = std::fma(-k, c1, a);
  const double b = k * c2;
  const double h = r1 - b;
  // TwoSum of r1 and -b: l is what h lost.
  const double r1_part = h + b;
  const double b_part = r1_part - h;
  const double l = (r1 - r1_part) + (b_part - b);
  const double t3 = k * c3;
  const double e = l - t3;
  const double y = h + e;
  const double reduction_error = u * (std::fabs(y) + std::fabs(e) + std::fabs(t3)) + std::fabs(k) * delta_bound;

  const double z = y * y;
  double p = std::fma(z, s17, s15);
  p = std::fma(z, p, s13);
  p = std::fma(z, p, s11);
  p = std::fma(z, p, s9);
  p = std::fma(z, p, s7);
  p = std::fma(z, p, s5);
  p = std::fma(z, p, s3);
  const double s = std::fma(y, z * p, y);
  double q = std::fma(z, k16, k14);
  q = std::fma(z, q, k12);
  q = std::fma(z, q, k10);
  q = std::fma(z, q, k8);
  q = std::fma(z, q, k6);
  q = std::fma(z, q, k4);
  q = std::fma(z, q, k2);
  const double c = std::fma(z, q, 1.0);
  const double s_scaled = unit ? s : s * factor;
  const double c_scaled = unit ? c : c * factor;
  const double s_raw_error = sin_poly_bound * std::fabs(s) + reduction_error;
  const double c_raw_error = cos_poly_bound * std::fabs(c) + reduction_error;
  const double s_error =
      ((unit ? s_raw_error : factor_magnitude * s_raw_error) + u * std::fabs(s_scaled)) * bound_margin;
  const double c_error =
      ((unit ? c_raw_error : factor_magnitude * c_raw_error) + u * std::fabs(c_scaled)) * bound_margin;

  // k mod 4 from the low bits of k + 1.5 2^52 (two's complement): sin a is
  // (s, c, -s, -c)[q] and cos a is (c, -s, -c, s)[q].
  const auto quadrant = std::bit_cast<std::uint64_t>(shifted);
  const std::uint64_t swap = -(quadrant & 1U);
  const std::uint64_t s_bits = std::bit_cast<std::uint64_t>(s_scaled);
  const std::uint64_t c_bits = std::bit_cast<std::uint64_t>(c_scaled);
  const std::uint64_t sin_sign = (quadrant & 2U) << 62;
  const std::uint64_t cos_sign = ((quadrant + 1U) & 2U) << 62;
  sin_out = std::bit_cast<double>(((c_bits & swap) | (s_bits & ~swap)) ^ sin_sign);
  cos_out = std::bit_cast<double>(((s_bits & swap) | (c_bits & ~swap)) ^ cos_sign);
  const bool reduced = std::fabs(y) <= max_reduced;
  return static_cast<std::int64_t>(reduced & within_relative(s_scaled, s_error, tolerance) &
                                   within_relative(c_scaled, c_error, tolerance));
}

template <bool unit>
bool sin_cos_loop(const double* angles, std::size_t n, double factor, double tolerance, double* cos_out,
                  double* sin_out, std::int64_t* ok) {
  const double* __restrict angle = angles;
  double* __restrict cos_v = cos_out;
  double* __restrict sin_v = sin_out;
  std::int64_t* __restrict usable = ok;
  const double factor_magnitude = std::fabs(factor);
  std::int64_t all = 1;
  // Two vectors an iteration: their chains (two polynomials of eight FMAs)
  // overlap (2.67 -> 2.61 ns an angle on rows of 64, Zen 4; the same within
  // noise for AVX2).
#pragma GCC ivdep
#pragma GCC unroll 2
  for (std::size_t i = 0; i < n; ++i) {
    usable[i] = sin_cos_entry<unit>(angle[i], factor, factor_magnitude, tolerance, cos_v[i], sin_v[i]);
    all &= usable[i];
  }
  return all != 0;
}

}  // namespace

bool float_angle_sin_cos(const double* angles, std::size_t n, double factor, double tolerance, double* cos_out,
                         double* sin_out, std::int64_t* ok) {
  return factor == 1.0 ? sin_cos_loop<true>(angles, n, factor, tolerance, cos_out, sin_out, ok)
                       : sin_cos_loop<false>(angles, n, factor, tolerance, cos_out, sin_out, ok);
}

}  // namespace pecheck::reference
