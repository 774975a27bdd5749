#include "rotary_bounds.hpp"

#include <algorithm>
#include <cmath>

#include "pecheck/double_double.hpp"
#include "pecheck/reference/rotary_reference.hpp"
#include "pecheck/ulp.hpp"
#include "scaling_support.hpp"

namespace pecheck::properties::rotary {

// Notation: pair i rotates (q_a, q_b) by the cache's entries at position p,
// c_p = A cos(p theta_i) + e, s_p = A sin(p theta_i) + e' against the exact
// encoding, each |e| <= delta; the logit of the pair is q'_m . k'_n and its
// target A^2 q^T R((n - m) theta_i) k (RoFormer section 3.4.2).
//
// Against the exact encoding (the bound the checks always had): rotating a
// pair with entries each within delta of A cos and A sin moves it by at most
// 2 delta |q_i| (each component by sqrt(2) delta |q_i|), so q'.k' moves by at
// most (4 A delta + 4 delta^2) |q_i| |k_i|.
//
// Against a computation model: the entries are within delta of A' cos(psi_p)
// and A' sin(psi_p), psi_p = RN_angle(RN_position(p) * f~_i), where f~_i is
// the cache's inv_freq: the model's f_i, or within relative r =
// libm_inv_freq_allowance of it (a framework's own pow; pecheck validate's
// comparison allows it too), and A' = RN_angle(A) (reference/rotary_entry.cpp).
// Then
//   q'_m . k'_n = A'^2 q^T R(psi_n - psi_m) k + E,  |E| <= (4 A' delta + 4 delta^2) |q_i| |k_i|
// as above, and, R being 1-Lipschitz in the angle (||R(a) - R(b)|| =
// 2 |sin((a - b) / 2)| <= |a - b|),
//   |A'^2 q^T R(psi_n - psi_m) k - A^2 q^T R((n - m) theta_i) k|
//     <= (|A'^2 - A^2| + A^2 |psi_n - psi_m - (n - m) theta_i|) |q_i| |k_i|.
// Writing psi_p = p f~_i + t_p,
//   psi_n - psi_m - (n - m) theta_i = t_n - t_m + (n - m)(f~_i - theta_i),
// so the angle term is |t_m| + |t_n| + |m - n| |f~_i - theta_i|: the angle
// rounding at both positions and the frequency's error times the lag. The
// position rounded to p_r and the product rounded to the angle format,
//   |t_p| <= |p_r - p| f~_i + ulp(p_r f~_i) / 2
// (round to nearest errs by at most half the spacing of the binade the exact
// product lies in; ulp is monotone, so f~_i <= f_i (1 + r) bounds it), and
//   |f~_i - theta_i| <= |f_i - theta_i| + r f_i,
// with f_i the reference's rotary_model_inv_freq and theta_i the exact
// frequency correctly rounded to double (|error| <= 2^-53 theta_i, added).
// For hf-float32 positions below 2^24 are exact (p_r = p), so q_m . k_n
// depends on m - n only up to ulp(psi_m)/2 + ulp(psi_n)/2 and the
// frequency's error times the lag: at p = 4999 and theta_0 = 1 the first
// pair alone may move by 2^-11 |q_0| |k_0|, the 5.3e-4 measured on a correct
// NumPy cache that the exact bound (9.7e-5) refused.
//
// A cache's pair norm does not see the angle (cos^2 + sin^2 = 1 at every
// angle), only the entries' errors and A': |c^2 + s^2 - A^2| <= 2 sqrt(2)
// A' delta + 2 delta^2 + |A'^2 - A^2| (|cos| + |sin| <= sqrt(2)), plus 4
// 2^-53 max(A, A')^2 for the squares and their sum in double.

namespace {

// The exact inv_freq_i, correctly rounded to double: a model that rounds the
// exact frequency once, in float64.
const ComputationModel exact_in_double{"exact-in-double", "the exact inv_freq rounded once to float64",
                                       FormatId::float64, FormatId::float64,
                                       FormatId::float64, InvFreqRule::correctly_rounded};

}  // namespace

RotaryCacheBounds::RotaryCacheBounds(const RotaryConvention& convention, FormatId format, double budget_ulp,
                                     std::optional<ComputationModel> model)
    : model_(std::move(model)) {
  const RotaryDerived derived = rotary_derived(convention);
  factor_ = derived.attention_factor;
  model_factor_ = model_ ? round_to_format(factor_, format_of(model_->angle)) : factor_;
  const double largest_factor = std::max(factor_, model_factor_);
  // delta: the largest error of an entry within the budget: budget ULPs of
  // the largest binade the entries reach, that of the attention factor.
  delta_ = budget_ulp * std::ldexp(1.0, std::ilogb(largest_factor) - format_of(format).precision + 1);
  amplitude_ = largest_factor + delta_;
  const std::string budget = " (entries within " + scaling_support::format_number(budget_ulp) + " ULP of " +
                             std::string(format_of(format).name) + ")";
  if (!model_) {
    name_ = "the exact encoding's bound" + budget;
    return;
  }
  name_ = "the computation model " + model_->name +
          "'s bound (its angle and attention factor rounding, inv_freq "
          "within the libm allowance;" +
          budget.substr(2);
  const double r = libm_inv_freq_allowance(*model_);
  for (std::int64_t i = 0; i < derived.frequencies; ++i) {
    const double f = reference::rotary_model_inv_freq(convention, i, *model_);
    const double theta = reference::rotary_model_inv_freq(convention, i, exact_in_double);
    largest_inv_freq_.push_back(f * (1.0 + r));
    // The sum's own double rounding: 2^-50 relative covers it and theta's.
    frequency_error_.push_back((std::fabs(f - theta) + r * f + 0x1p-53 * theta) * (1.0 + 0x1p-50));
  }
}

double RotaryCacheBounds::angle_error(std::int64_t p, std::int64_t i) const {
  const double f = largest_inv_freq_[static_cast<std::size_t>(i)];
  const double p_r = round_to_format(static_cast<double>(p), format_of(model_->position));
  // The product in double rounds by 2^-53 relative: 2^-50 more keeps the
  // binade an upper bound of the exact product's.
  const double angle = std::fabs(p_r) * f * (1.0 + 0x1p-50);
  const double spacing = angle == 0.0 ? 0.0 : ulp_of(DoubleDouble{angle, 0.0}, format_of(model_->angle));
  return std::fabs(p_r - static_cast<double>(p)) * f + spacing / 2.0;
}

double RotaryCacheBounds::logit_pair(std::int64_t i, std::int64_t m, std::int64_t n) const {
  const double entries = 4.0 * model_factor_ * delta_ + 4.0 * delta_ * delta_;
  if (!model_) return entries;
  const double lag = std::fabs(static_cast<double>(m - n));
  const double angles = angle_error(m, i) + angle_error(n, i) + lag * frequency_error_[static_cast<std::size_t>(i)];
  const double factors = std::fabs(model_factor_ - factor_) * (model_factor_ + factor_);
  // (1 + 2^-50): the few double operations of this sum, each within 2^-53.
  return (entries + factors + factor_ * factor_ * angles) * (1.0 + 0x1p-50);
}

double RotaryCacheBounds::pair_norm() const {
  const double largest = std::max(factor_, model_factor_);
  const double factors = std::fabs(model_factor_ - factor_) * (model_factor_ + factor_);
  return (2.0 * std::sqrt(2.0) * model_factor_ * delta_ + 2.0 * delta_ * delta_ + factors +
          4.0 * 0x1p-53 * largest * largest) *
         (1.0 + 0x1p-50);
}

}  // namespace pecheck::properties::rotary
