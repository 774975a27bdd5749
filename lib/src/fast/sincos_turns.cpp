#include "sincos_turns.hpp"

// GCC 12 reports its own AVX-512 header as reading an uninitialised value in
// _mm512_roundscale_pd (the pass-through operand of an all-ones mask, which is
// never read): a false positive in Eigen's vectorised rint and floor.
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#endif
#include <Eigen/Core>

#include "fast_constants.hpp"

// Why this is accurate: the error bound, with its numbers
// =======================================================
//
// u = 2^-53. f is a column's frequency in turns (w / 2 pi); every preset has
// w <= 1, so f < 2^-2.65. p is an integer position, |p| < 2^24. T is sin or
// cos, and v = T(2 pi p f) the exact entry.
//
// 1. The frequency. frequency_in_turns() gives f to 2^-100 |f| (the tests
//    measure at most 2^-101.6 against a 113-bit evaluation, every preset,
//    d up to 16384) and split_for_positions() adds
//    2^-109 |f|: the split F = f1 + f2 + f3 has |F - f| <= 2^-99.9 f, so
//    |p F - p f| <= 2^24 * 2^-2.65 * 2^-99.9 = 2^-78.55 turns.
//
// 2. The product and the reduction, all in plain double operations:
//    a = p f1 - rint(p f1) and b = p f2 - rint(p f2) are exact (p f1, p f2
//    have at most 24 + 29 bits; subtracting the nearest integer is exact), so
//    dropping whole turns costs nothing. c = fl(p f3) errs by
//    u |p f3| <= 2^-53 * 2^24 * 2^-56 f <= 2^-87.65.
//    (th, tl) = two_sum(a, b) is exact, |th| <= 1, |tl| <= u; tl + c rounds
//    once more, again by at most 2^-87.65 (|tl + c| < 2^-34.6).
//    q = rint(4 th) picks the nearest quarter turn; th - q/4 is exact (for
//    q != 0, th and q/4 are within a factor 2: Sterbenz) and at most 1/8;
//    (rh, rl) = two_sum(th - q/4, tl + c) is exact.
//    So R = rh + rl differs from p f - q/4 (mod 1) by
//    delta_t <= 2^-78.55 + 2 * 2^-87.65 <= 2^-78.5 turns, and |R| <= 1/8 + 2^-34.
//    No step needs an FMA, so the loop vectorises on any SSE/AVX level and
//    gives the same bits with or without one (-ffp-contract=off).
//
// 3. The polynomials, theta = 2 pi R, |theta| <= pi/4 (1 + 2^-30):
//    sin: Taylor through theta^17: the first omitted term is below 2^-62.8 |sin|.
//      s1 R is formed exactly (Dekker's product of s1_hi and rh) plus s1_lo rh
//      and the slope term rl (s1 + 3 s3 rh^2); the tail rh^3 (s3 + ... + s17 rh^14)
//      is at most theta^2/6 = 0.103 of |theta| and is computed to about 4.5u, with
//      the coefficients' own rounding u: 0.57u |theta|. The low part rounds once
//      (0.11u |theta|), the final sum once (u |sin|). With |sin| >= 0.897 |theta|:
//      relative error <= (1 + 0.68 / 0.897) u = 1.76u < 2u = 2^-52.
//    cos: 1 + c2 R^2 + ... + c18 R^18, first omitted term below 2^-67.5 |cos|.
//      R^2 and c2 R^2 are formed exactly (Dekker) up to u^2 terms; 1 + c2 rh^2
//      is an exact two-sum; the tail (at most theta^4/24 = 0.016) carries about
//      5u of it: 0.08u. With |cos| >= 0.707: relative error <= 1.2u < 2u.
//    The quadrant q only permutes and negates sin and cos, exactly.
//
// 4. The entry. Let rho be the distance in turns from p f to the nearest zero
//    of T (multiples of 1/2 for sin, 1/4 + multiples of 1/2 for cos). Since
//    |sin x| >= 2|x|/pi on [0, pi/2], |v| >= 4 rho; a turn error delta_t moves
//    the value by at most 2 pi delta_t. So the computed double y satisfies
//      |y - v| / |v| <= 2u + 2 pi delta_t / (4 rho) <= 2^-52 + 2^-77.9 / rho.
//    The argument's relative error near a zero is therefore delta_t / rho, not
//    u: it is the absolute error of the turn count that matters.
//
// 5. The formats. float32 rounds y once, adding at most half an ulp; an ulp
//    of float32 is at least 2^-24 |v|, so the error is at most
//      0.5 + 2^24 (2^-52 + 2^-77.9 / rho) = 0.5 + 2^-28 + 2^-53.9 / rho  ulp,
//    i.e. 0.5 + 2^-20 ulp whenever rho >= 2^-33.9, and within 1 ulp whenever
//    rho >= 2^-52.9. rho is not zero for p != 0 (w / pi is irrational for
//    every preset) and p = 0 is computed exactly, but it has no a priori lower
//    bound: if p f is equidistributed modulo 1/2, P(rho < x) = 4x per entry,
//    and a 2^24 x 16384 table (2^38 entries) has rho < 2^-52.9 somewhere with
//    probability about 2^-12.9. The tests search whole columns for their
//    smallest rho and measure the error there.
//    float16 and bfloat16 round the same y once: at most 0.5 + 2^-40 / rho ulp,
//    and in float16's subnormal range the absolute error (2^-52 |v| + 2^-75.9)
//    is nothing beside its ulp of 2^-24.
//    float64 inherits the bound of step 4 directly: up to 2 ulp from the
//    kernel, plus 2^-24.9 / rho ulp near zeros, which is the price of a
//    frequency known to 2^-100 rather than to 2^-130. Measured: at most 0.72
//    ulp at sampled positions, 1.79 ulp at the closest zero found
//    (rho = 2^-34.9), where the 113-bit reference is itself good to 0.75 ulp.

namespace pecheck {

namespace {

namespace fc = fast_constants;

using Lanes = Eigen::Array<double, sincos_lanes, 1>;

// Veltkamp's split: x = hi + lo exactly, each with at most 26 significant bits.
constexpr double veltkamp = 134217729.0;  // 2^27 + 1

struct Split {
  double hi;
  double lo;
};

constexpr Split split_constant(double x) {
  const double t = veltkamp * x;
  const double hi = t - (t - x);
  return {hi, x - hi};
}

inline void split(const Lanes& x, Lanes& hi, Lanes& lo) {
  const Lanes t = veltkamp * x;
  hi = t - (t - x);
  lo = x - hi;
}

// Dekker's product: a b - p exactly, for p = fl(a b), from the splits of a and b.
inline Lanes product_error(const Lanes& p, const Split& a, const Lanes& b_hi, const Lanes& b_lo) {
  return ((a.hi * b_hi - p) + a.hi * b_lo + a.lo * b_hi) + a.lo * b_lo;
}

inline void two_sum(const Lanes& a, const Lanes& b, Lanes& sum, Lanes& error) {
  sum = a + b;
  const Lanes b_virtual = sum - a;
  error = (a - (sum - b_virtual)) + (b - b_virtual);
}

// sin(2 pi (rh + rl)) for |rh + rl| <= 1/8 + 2^-34 (step 3 above).
inline Lanes sin_turns(const Lanes& rh, const Lanes& rl, const Lanes& rh_hi, const Lanes& rh_lo) {
  static constexpr Split s1 = split_constant(fc::s1_hi);
  const Lanes r2 = rh * rh;
  Lanes poly = Lanes::Constant(fc::sin_tail[7]);
  for (int j = 6; j >= 0; --j) poly = fc::sin_tail[j] + r2 * poly;
  const Lanes tail = (rh * r2) * poly;
  const Lanes ph = fc::s1_hi * rh;
  const Lanes pl = product_error(ph, s1, rh_hi, rh_lo);
  const Lanes slope_of_rl = rl * (fc::s1_hi + fc::three_s3 * r2);
  const Lanes lo = tail + (pl + (fc::s1_lo * rh + slope_of_rl));
  return ph + lo;
}

// cos(2 pi (rh + rl)) for |rh + rl| <= 1/8 + 2^-34 (step 3 above).
inline Lanes cos_turns(const Lanes& rh, const Lanes& rl, const Lanes& rh_hi, const Lanes& rh_lo) {
  static constexpr Split c2 = split_constant(fc::c2_hi);
  // R^2 = qh + ql: Dekker's square of rh, plus 2 rh rl.
  const Lanes qh = rh * rh;
  const Lanes ql = (((rh_hi * rh_hi - qh) + rh_hi * rh_lo + rh_lo * rh_hi) + rh_lo * rh_lo) + (rh * rl) * 2.0;
  Lanes qh_hi;
  Lanes qh_lo;
  split(qh, qh_hi, qh_lo);
  // c2 R^2 = mh + ml, then 1 + mh = sh + sl exactly (|mh| <= 0.31 < 1).
  const Lanes mh = fc::c2_hi * qh;
  const Lanes ml = product_error(mh, c2, qh_hi, qh_lo) + (fc::c2_lo * qh + fc::c2_hi * ql);
  const Lanes sh = 1.0 + mh;
  const Lanes sl = mh - (sh - 1.0);
  Lanes poly = Lanes::Constant(fc::cos_tail[7]);
  for (int j = 6; j >= 0; --j) poly = fc::cos_tail[j] + qh * poly;
  const Lanes tail = (qh * qh) * poly;
  return sh + (tail + (sl + ml));
}

// One group of lanes at offset i, lane k at position p[k]: every operation is
// lane-wise, so a lane's result depends on its own position and frequency
// alone, whichever entry point passed them.
[[gnu::always_inline]] inline void sincos_group(const Lanes& p, const double* f1, const double* f2, const double* f3,
                                                std::int64_t i, double* sin_out, double* cos_out) {
  // Step 2: the turn count modulo 1, as th + tl (+ c), then modulo 1/4.
  Lanes a = p * Eigen::Map<const Lanes>(f1 + i);
  a = a - a.rint();
  Lanes b = p * Eigen::Map<const Lanes>(f2 + i);
  b = b - b.rint();
  const Lanes c = p * Eigen::Map<const Lanes>(f3 + i);
  Lanes th;
  Lanes tl;
  two_sum(a, b, th, tl);
  tl = tl + c;
  const Lanes q = (4.0 * th).rint();
  Lanes rh;
  Lanes rl;
  two_sum(th - 0.25 * q, tl, rh, rl);

  Lanes rh_hi;
  Lanes rh_lo;
  split(rh, rh_hi, rh_lo);
  const Lanes s = sin_turns(rh, rl, rh_hi, rh_lo);
  const Lanes co = cos_turns(rh, rl, rh_hi, rh_lo);

  // The quadrant q mod 4 = 2 half + odd: sin(x + q pi/2) is s, co, -s, -co
  // and cos(x + q pi/2) is co, -s, -co, s. Selecting by multiplying with 0
  // and 1 and adding a zero is exact (no value here is zero except sin at
  // p f = 0, which stays +0), and it keeps the loop free of branches.
  const Lanes quadrant = q - 4.0 * (0.25 * q).floor();
  const Lanes half = (0.5 * quadrant).floor();
  const Lanes odd = quadrant - 2.0 * half;
  const Lanes even = 1.0 - odd;
  const Lanes sin_sign = 1.0 - 2.0 * half;
  const Lanes cos_sign = 1.0 - 2.0 * (odd + half - 2.0 * odd * half);  // negative in quadrants 1 and 2
  Eigen::Map<Lanes>(sin_out + i) = sin_sign * (even * s + odd * co);
  Eigen::Map<Lanes>(cos_out + i) = cos_sign * (even * co + odd * s);
}

}  // namespace

void sincos_turns(std::int64_t position, const double* f1, const double* f2, const double* f3, std::int64_t count,
                  double* sin_out, double* cos_out) {
  const Lanes p = Lanes::Constant(static_cast<double>(position));
  for (std::int64_t i = 0; i < count; i += sincos_lanes) sincos_group(p, f1, f2, f3, i, sin_out, cos_out);
}

void sincos_turns_each(const double* positions, const double* f1, const double* f2, const double* f3,
                       std::int64_t count, double* sin_out, double* cos_out) {
  for (std::int64_t i = 0; i < count; i += sincos_lanes) {
    sincos_group(Eigen::Map<const Lanes>(positions + i), f1, f2, f3, i, sin_out, cos_out);
  }
}

}  // namespace pecheck
