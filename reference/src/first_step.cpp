#include "first_step.hpp"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <limits>

#include "argument_reduction.hpp"
#include "turn_constants.hpp"

namespace pecheck::reference {

// The argument. The angle is p w = 2 pi t with t = p F / N turns, F = w N / (2 pi)
// in table steps (N = table_steps), F = f0 + f1 + f2 + dF, |dF| <= F.error.
//   p f0 = a0 + a1                 exactly (FMA), p an integer below 2^31;
//   n = nearest integer to a0,     r0 = a0 - n exact (Sterbenz: n is 0, or
//                                  within a factor 2 of a0 once |a0| > 1/2);
//   p f1 = b0 + b1                 exactly;
//   c0 = RN(p f2),                 |c0 - p f2| <= u |c0| (u = 2^-53);
//   r0 + a1 = s1 + l1, s1 + b0 = s2 + l2   exactly (TwoSum);
//   lows = RN(RN(RN(l1 + l2) + b1) + c0),  three roundings: within
//                                  3u/(1-3u) (|l1| + |l2| + |b1| + |c0|) < 2^-51 (...);
//   y = s2 + lows                  exactly (TwoSum).
// So y is p F - n in steps to within
//   y_error = |p| F.error + 2^-52 |c0| + 2^-51 (|l1| + |l2| + |b1| + |c0|),
// and n mod N is the table point j. With |p f0| <= 2^40 (first_step_applies),
// |a1|, |b0| <= 2^-13, so |y| <= 1/2 + 2^-12 steps and the remainder angle
// x = y (2 pi / N) has |x| <= 0.003069 < 2^-8.34 radians.
//
// The remainder in radians: x = dw_mul(y, K~), K~ the double-word of
// K = 2 pi / N (within 2^-106 K). Against the exact X = (p F - n) K:
//   |x - X| <= eta = K y_error + (2^-103 + 2^-106) |x|         (+ second order).
//
// The polynomials (z = x^2 as dw_mul(x, x), within 2^-103 z; coefficients
// within 2^-106; Horner in double-word):
//   sin x = x + x z S(z) - T_s,  |T_s| <= |x|^11 / 11! <= 2^-108.65 |x|;
//   cos x = 1 + z C(z) + T_c,    |T_c| <= x^12 / 12! <= 2^-128.8.
//   Every Horner step adds a term at most rho = z/12 < 2^-20 of the partial
//   sum, so the relative error of S and C is (2^-104 + 2^-106)(1 + 2 rho) +
//   3 rho 2^-103 < 2^-103.6; the products z S(z) and x z S(z) bring it to
//   2^-101.4 relative of terms below x^3/6 <= 2^-19.2 |x| and x^2/2 <= 2^-17.6:
//   absolute 2^-120.6 |x| and 2^-119 after the last double-word addition,
//   which itself adds 2^-104 of the result. Hence
//     |s - sin x| <= alpha_s = 2^-104 |s| + 2^-108 |x|,
//     |c - cos x| <= alpha_c = 2^-104 |c| + 2^-118.
//   The argument's error moves them by |sin x - sin X| <= eta and
//   |cos x - cos X| <= eta (|x| + eta).
//
// The angle sum, S, C the table's double-words of sin and cos of 2 pi j / N
// (within 2^-106; exactly 0 or +-1 at quarter turns):
//   sin(p w) = S cos X + C sin X,   cos(p w) = C cos X - S sin X,
// each evaluated as two dw_mul (2^-103 each) and one dw_add (2^-104), so
//   sin_error = 2^-104 |v_s| + (2^-103 + 2^-106)(|S c| + |C s|)
//             + |S| (alpha_c + eta (|x| + eta)) + |C| (alpha_s + eta),
// and symmetrically for cos. The bound is computed in double from
// non-negative terms (about 30 operations, each within u), and second-order
// terms were dropped above; the final factor 1 + 2^-40 covers both.
//
// Underflow: first_step_applies keeps F >= 2^-50 steps, and below |x| = 2^-400
// the enclosure is given up (infinite error), so every intermediate, including
// the low words, stays far above 2^-1000 and JMP17's bounds hold as stated.

namespace {

constexpr double max_position = 0x1p31;
constexpr double min_frequency = 0x1p-50;  // in steps per position
constexpr double max_steps = 0x1p40;       // |p f0|, so that a1 and b0 stay small
constexpr double min_remainder = 0x1p-400;
constexpr double bound_margin = 1.0 + 0x1p-40;
constexpr double product_error = dw_mul_error + constant_error;

}  // namespace

bool first_step_applies(std::int64_t position, const StepsFrequency& frequency) {
  const double p = std::fabs(static_cast<double>(position));
  return position != 0 && p <= max_position && frequency.f0 >= min_frequency && p * frequency.f0 <= max_steps &&
         std::isfinite(frequency.error);
}

namespace {

// The whole first step for one position and frequency, without branches so
// that the row loop below vectorises (the constants' gather included).
// The constants as plain values, copied once before a loop: the vectoriser
// takes neither aggregate loads nor loads it cannot prove invariant.
struct KernelConstants {
  DoubleWord radians_per_step;
  DoubleWord s3, s5, s7, s9;       // sin_tail
  DoubleWord c2, c4, c6, c8, c10;  // cos_tail
  const double* sin_hi;
  const double* sin_lo;
  const double* cos_hi;
  const double* cos_lo;
};

KernelConstants kernel_constants(const TurnConstants& t) {
  return {t.radians_per_step, t.sin_tail[0], t.sin_tail[1], t.sin_tail[2], t.sin_tail[3], t.cos_tail[0],
          t.cos_tail[1],      t.cos_tail[2], t.cos_tail[3], t.cos_tail[4], t.sin_hi.data(), t.sin_lo.data(),
          t.cos_hi.data(),    t.cos_lo.data()};
}

[[gnu::always_inline]] inline SinCosEnclosure enclose(double p, double f0, double f1, double f2, double f_error,
                                                      const KernelConstants& k) {
  // The argument, in steps.
  const ReducedArgument reduced = reduce_argument(p, f0, f1, f2, f_error);
  const DoubleWord y = reduced.y;
  const double y_error = reduced.y_error;
  const double n = reduced.n;

  // In radians.
  const DoubleWord x = dw_mul(y, k.radians_per_step);
  const double x_abs = std::fabs(x.hi);
  const double eta = k.radians_per_step.hi * y_error + product_error * x_abs;

  // The polynomials.
  const DoubleWord z = dw_mul(x, x);
  DoubleWord sin_tail = k.s9;
  sin_tail = dw_add(k.s7, dw_mul(z, sin_tail));
  sin_tail = dw_add(k.s5, dw_mul(z, sin_tail));
  sin_tail = dw_add(k.s3, dw_mul(z, sin_tail));
  const DoubleWord s = dw_add(x, dw_mul(x, dw_mul(z, sin_tail)));
  DoubleWord cos_tail = k.c10;
  cos_tail = dw_add(k.c8, dw_mul(z, cos_tail));
  cos_tail = dw_add(k.c6, dw_mul(z, cos_tail));
  cos_tail = dw_add(k.c4, dw_mul(z, cos_tail));
  cos_tail = dw_add(k.c2, dw_mul(z, cos_tail));
  const DoubleWord c = dw_add(DoubleWord{1.0, 0.0}, dw_mul(z, cos_tail));
  const double sin_x_error = 0x1p-104 * std::fabs(s.hi) + 0x1p-108 * x_abs + eta;
  const double cos_x_error = 0x1p-104 * std::fabs(c.hi) + 0x1p-118 + eta * (x_abs + eta);

  // The angle sum with the table point j = n mod N (n's two's complement low bits).
  const auto j = static_cast<std::size_t>(static_cast<std::int64_t>(n) & (table_steps - 1));
  const DoubleWord big_s{k.sin_hi[j], k.sin_lo[j]};
  const DoubleWord big_c{k.cos_hi[j], k.cos_lo[j]};
  const DoubleWord sc = dw_mul(big_s, c);
  const DoubleWord cs = dw_mul(big_c, s);
  const DoubleWord cc = dw_mul(big_c, c);
  const DoubleWord ss = dw_mul(big_s, s);

  SinCosEnclosure out;
  out.sin_value = dw_add(sc, cs);
  out.cos_value = dw_add(cc, dw_neg(ss));
  const double abs_s = std::fabs(big_s.hi);
  const double abs_c = std::fabs(big_c.hi);
  // Below min_remainder the bound is given up (see "Underflow" above).
  const double give_up = x_abs >= min_remainder ? 1.0 : std::numeric_limits<double>::infinity();
  out.sin_error = (dw_add_error * std::fabs(out.sin_value.hi) + product_error * (std::fabs(sc.hi) + std::fabs(cs.hi)) +
                   abs_s * cos_x_error + abs_c * sin_x_error) *
                  bound_margin * give_up;
  out.cos_error = (dw_add_error * std::fabs(out.cos_value.hi) + product_error * (std::fabs(cc.hi) + std::fabs(ss.hi)) +
                   abs_c * cos_x_error + abs_s * sin_x_error) *
                  bound_margin * give_up;
  return out;
}

}  // namespace

SinCosEnclosure first_step_sin_cos(std::int64_t position, const StepsFrequency& frequency) {
  return enclose(static_cast<double>(position), frequency.f0, frequency.f1, frequency.f2, frequency.error,
                 kernel_constants(turn_constants()));
}

bool first_step_applies_to_row(std::int64_t position, const StepsFrequencies& frequencies) {
  const double p = std::fabs(static_cast<double>(position));
  return position != 0 && p <= max_position && frequencies.smallest_f0 >= min_frequency &&
         p * frequencies.largest_f0 <= max_steps && frequencies.all_errors_finite;
}

void first_step_row(std::int64_t position, const StepsFrequencies& frequencies, RowEnclosures& out) {
  const KernelConstants k = kernel_constants(turn_constants());
  const double p = static_cast<double>(position);
  const std::size_t count = frequencies.f0.size();
  out.resize(count);
  const double* __restrict f0 = frequencies.f0.data();
  const double* __restrict f1 = frequencies.f1.data();
  const double* __restrict f2 = frequencies.f2.data();
  const double* __restrict f_error = frequencies.error.data();
  double* __restrict sin_hi = out.sin_hi.data();
  double* __restrict sin_lo = out.sin_lo.data();
  double* __restrict sin_error = out.sin_error.data();
  double* __restrict cos_hi = out.cos_hi.data();
  double* __restrict cos_lo = out.cos_lo.data();
  double* __restrict cos_error = out.cos_error.data();
  // The outputs alias neither the frequencies nor the constants' tables.
#pragma GCC ivdep
  for (std::size_t i = 0; i < count; ++i) {
    const SinCosEnclosure e = enclose(p, f0[i], f1[i], f2[i], f_error[i], k);
    sin_hi[i] = e.sin_value.hi;
    sin_lo[i] = e.sin_value.lo;
    sin_error[i] = e.sin_error;
    cos_hi[i] = e.cos_value.hi;
    cos_lo[i] = e.cos_value.lo;
    cos_error[i] = e.cos_error;
  }
}

StepsFrequencies::StepsFrequencies(const std::vector<StepsFrequency>& all) {
  for (const StepsFrequency& f : all) {
    f0.push_back(f.f0);
    f1.push_back(f.f1);
    f2.push_back(f.f2);
    error.push_back(f.error);
    smallest_f0 = std::min(smallest_f0, f.f0);
    largest_f0 = std::max(largest_f0, f.f0);
    all_errors_finite = all_errors_finite && std::isfinite(f.error);
  }
}

void RowEnclosures::resize(std::size_t count) {
  for (std::vector<double>* v : {&sin_hi, &sin_lo, &sin_error, &cos_hi, &cos_lo, &cos_error}) v->resize(count);
}

}  // namespace pecheck::reference
