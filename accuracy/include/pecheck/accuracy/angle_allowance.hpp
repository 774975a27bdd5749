// The float64-angle allowance of third-party tables: how far from the exact
// value an ordinary, correct float64 computation of an entry can be, derived
// below, so that `pecheck validate` does not fail a float64 NumPy table for
// the rounding of its angles, and still fails everything worse.
//
// Why the ULP budget alone cannot be met. The ordinary code (NumPy, PyTorch
// or JAX in float64) rounds the angle theta = p w before it takes sin or cos.
// sin(theta^) - sin(theta) ~ cos(theta) (theta^ - theta) is an absolute error
// of about |theta| u (u = 2^-53) whatever the size of the value, so it is
// many ULP of any value much smaller than 1: in the PyTorch tutorial's
// formula run in float64 by NumPy (2048 x 512), 80% of the entries are beyond
// 2 ULP, and the worst is 8.5e7 ULP (-1.6e-6 off by 1.8e-14, position 1681).
// No libm can undo an error in an angle it is handed: this is the
// computation order, not a defect. A
// third-party entry therefore passes when it is within the ULP budget, or
// when its absolute error is within the bound derived here.
//
// The computation bounded. Every +, -, *, / of doubles is within u relative;
// every libm call (log, exp, pow, sin, cos) within L = 4 ULP, hence within
// 2 L u relative since ulp(y) <= 2 u |y|. L is NumPy's: on AVX-512 machines
// np.sin, np.cos, np.exp, np.log and np.power are Intel's SVML, whose largest
// error over all its functions is 4 ULP (numpy PR 19478); np.sin(1343.0) is
// 2.87 ULP from the exact value, 3 ULP from glibc's. glibc and CUDA (within 1
// and 2 ULP) are inside it. With t = -(k / m) ln B the frequency's exponent
// (B = base or max_ts / min_ts, k = 2i or i, m = d or max(n - 1, 1): see
// FrequencyTerm) and w = exp(t) / divisor:
//   exp form (PyTorch tutorial, fairseq, tensor2tensor, in float64):
//     l  = fl(ln B)       within 2 L u relative (and u / |ln B| more when
//                          B = fl(max_ts / min_ts) is itself a rounded quotient)
//     c  = fl(l / m)      + u
//     t^ = fl(k c)        + u, so |t^ - t| <= |t| (2 L + 2) u
//     w^ = fl(exp(t^))    |w^ - w| <= w (|t| (2 L + 2) u + 2 L u), since
//                          exp(t^) = exp(t) exp(t^ - t)
//   pow form (1 / base^(2i/d), p / base^(2i/d), base^(-2i/d)):
//     e  = fl(k / m)      + u, which is |t| u in ln(base^e)
//     base^e              + 2 L u; then 1 / x: + u
//                          so |w^ - w| <= w (|t| + 2 L + 1) u
//   then, in both, / divisor when min_ts is not 1: + u, times a timestep
//   rule's scale when it is not 1 (diffusers' scale * emb): + u, and
//   theta^ = fl(p w^): + u (p, an integer below 2^24, is exact).
// The exp form's (2 L + 2)|t| + 2 L + 1 and the pow form's |t| + 2 L + 2
// are both within
//     k_c = (2 L + 2) |t| + 2 L + 2   (+ 1 with a divisor, + 1 with a scale; 10|t| + 10 for L = 4)
// so |theta^ - theta| <= k_c u theta (1 + 2^-40): the factor covers the
// second-order terms, about (k_c u)^2 < 2^-40 k_c u relative. At frequency index 0
// with divisor 1 every step is exact (exp(0) = pow(B, 0) = 1 in every libm,
// and p * 1 = p): there theta^ = theta and k_c = 0.
// Then |sin(theta^) - sin(theta)| <= |theta^ - theta| (and so for cos), and
// sin's own error is within L ulp(sin theta^) <= L u, as |sin theta^| < 1.
// A float64 entry v therefore satisfies
//     |v - x| <= a = k_c u theta + L u.
// A narrower format of precision q rounds v once: with r_x the value nearest
// the exact x, |r - v| <= |r_x - v| <= ulp_q(x) / 2 + |v - x|, so
//     |r - x| <= ulp_q(x) / 2 + 2 a.
// Rows and columns the convention holds at zero are written as exact zeros,
// and position 0 gives theta^ = 0, sin 0 = 0 and cos 0 = 1 exactly: bound 0.
//
// Measured on NumPy 1.24 (AVX-512) tables of the PyTorch tutorial's formula
// in float64 (4096 x 512): the angle's error is at most (1.3|t| + 1.2) u theta
// against the derived (10|t| + 10) u theta, and the largest |error| / bound
// is 0.75, at column 0 (w = 1, an exact angle: np.sin's own 2.87 ULP).
// What stays caught: angles in float32 are off by about theta 2^-24, some
// 2^29 / k_c times the allowance; positions in bfloat16, a wrong layout or
// frequency rule by O(1).
#pragma once

#include <cstdint>
#include <string_view>
#include <vector>

#include "pecheck/accuracy/allowance.hpp"
#include "pecheck/convention.hpp"
#include "pecheck/double_double.hpp"
#include "pecheck/format.hpp"

namespace pecheck::accuracy {

// L above: the ULP error assumed of every libm call (SVML's 4 ULP).
inline constexpr double float64_libm_ulps = 4.0;

inline constexpr std::string_view float64_angle_allowance_source =
    "an ordinary float64 computation (angle p * w rounded, libm within NumPy's 4 ULP): |error| <= k u theta + 4u "
    "with k = 10|t| + 10 for w = exp(t), u = 2^-53, and twice that plus half an ULP when rounded to a narrower "
    "format (derived in angle_allowance.hpp)";

// The bound for one convention, width and format, as per-column coefficients.
// Rows are convention rows.
class Float64AngleAllowance final : public Allowance {
 public:
  Float64AngleAllowance(const Convention& convention, std::int64_t dim, FormatId format);

  // |theta^ - theta| for table row `row` (convention row) and `column`.
  double angle_error(std::int64_t row, std::int64_t column) const;
  // The largest |stored - exact| the computation above, rounded once to the
  // format, gives for that entry, whose exact value is `exact`.
  double bound(std::int64_t row, std::int64_t column, DoubleDouble exact) const override;
  std::string_view name() const override { return "the float64-angle bound"; }
  std::string_view source() const override { return float64_angle_allowance_source; }
  // The largest bound of any entry of rows 0 to `row` whose exact value lies
  // in [-1, 1] (ulp_q(x) <= 2^(1-q) there): the error a property may allow
  // every entry of those rows, since the bound grows with the position.
  double largest_bound(std::int64_t row) const;

  FormatId format() const { return format_; }

 private:
  Convention convention_;
  FormatId format_;
  std::vector<double> angle_error_per_position_;  // column c: |theta^ - theta| <= this * p
  std::vector<bool> zero_column_;
  double largest_per_position_ = 0.0;  // the largest of angle_error_per_position_
};

}  // namespace pecheck::accuracy
