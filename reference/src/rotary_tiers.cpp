#include "rotary_tiers.hpp"

#include <cmath>
#include <limits>

#include "enclosure_decision.hpp"
#include "first_step.hpp"
#include "pecheck/reference/nearest_rounding.hpp"
#include "rotated_rounding.hpp"
#include "rotated_steps.hpp"

namespace pecheck::reference {

namespace {

// The double tier's plain-double enclosure needs half a spacing of the
// format to hold a double spacing (narrow_rounding's exactness argument).
constexpr int double_tier_max_precision = 26;

// v = RN(factor t) for an enclosure t +- error of T: |factor T - v| <=
// |factor| error + |factor t - v| <= |factor| error + 2^-53 |v| (round to
// nearest is within u of its result too). The bound is computed with two
// products and a sum, each within u: the factor 1 + 2^-50 covers them.
void scale(double factor, double& value, double& error) {
  if (factor == 1.0) return;
  value *= factor;
  error = (std::fabs(factor) * error + 0x1p-53 * std::fabs(value)) * (1.0 + 0x1p-50);
}

// The same for a double-word t = hi + lo: P = hi factor exactly (FMA),
// t' = RN(lo factor), s = RN(P.lo + t'), and hi + lo <- P.hi + s exactly
// (TwoSum). |factor t - (P.hi + s)| <= 2^-53 (|t'| + |s|), so the error is
// |factor| error + 2^-53 (|t'| + |s|), computed within 1 + 2^-50.
void scale(double factor, DoubleWord& value, double& error) {
  if (factor == 1.0) return;
  const DoubleWord product = exact_product(value.hi, factor);
  const double t = value.lo * factor;
  const double s = product.lo + t;
  value = exact_sum(product.hi, s);
  error = (std::fabs(factor) * error + 0x1p-53 * (std::fabs(t) + std::fabs(s))) * (1.0 + 0x1p-50);
}

}  // namespace

RotaryTiers::RotaryTiers(const RotaryConvention& convention, const std::optional<ComputationModel>& model,
                         RotaryEntryEvaluator& model_source, const Format& format, ExactValues exact)
    : convention_(convention),
      derived_(rotary_derived(convention_)),
      model_(model),
      model_source_(model_source),
      format_(format),
      exact_(exact),
      tolerance_(exact == ExactValues::none ? 0.0 : exact_tolerance(exact, format.id)),
      factor_(model ? pecheck::round_to_format(derived_.attention_factor, format_of(model->angle))
                    : derived_.attention_factor),
      double_tier_(format.precision <= double_tier_max_precision && exact != ExactValues::full) {
  if (double_tier_) {
    narrow_ = narrow_format(format);
    constants_ = double_tier_constants();
  }
  const auto n = static_cast<std::size_t>(derived_.frequencies);
  frequencies_.resize(n);
  frequency_known_.assign(n, 0);
  model_inv_freq_.assign(n, std::numeric_limits<double>::quiet_NaN());
}

bool RotaryTiers::first_step_angle(std::int64_t position, std::int64_t frequency, std::int64_t& steps_position,
                                   StepsFrequency& steps) {
  const auto k = static_cast<std::size_t>(frequency);
  if (model_) {
    double& inv = model_inv_freq_[k];
    if (std::isnan(inv)) inv = model_source_.model_inv_freq(frequency);
    // The model's angle RN_angle(RN_position(p) inv_freq): the exact product
    // of two doubles is hi + lo (FMA), rounded once (as rotated_reference.cpp).
    const double p = round_nearest(static_cast<double>(position), format_of(model_->position));
    const DoubleWord product = exact_product(p, inv);
    const std::optional<BinaryAngleSteps> angle =
        binary_angle_steps(round_word(product.hi, product.lo, format_of(model_->angle)));
    if (!angle) return false;
    steps_position = angle->position;
    steps = angle->frequency;
  } else {
    if (!frequency_known_[k]) {
      frequencies_[k] = rotary_steps_frequency(convention_, derived_, frequency);
      frequency_known_[k] = 1;
    }
    steps_position = position;
    steps = frequencies_[k];
  }
  return first_step_applies(steps_position, steps);
}

bool RotaryTiers::settle(std::int64_t position, std::int64_t frequency, RotaryEntryResult& cos_result,
                         RotaryEntryResult& sin_result) {
  std::int64_t p = 0;
  StepsFrequency f;
  if (!first_step_angle(position, frequency, p, f)) return false;
  const bool want_exact = exact_ != ExactValues::none;
  if (double_tier_) {
    const DoubleEnclosure e = double_tier_sin_cos(static_cast<double>(p), f.f0, f.f1, f.f2, f.error, constants_);
    const auto decide = [&](double value, double error, RotaryEntryResult& out) {
      scale(factor_, value, error);
      const NarrowRounding r = narrow_rounding(value, error, narrow_);
      out.rounded = r.value;
      out.exact = {value, 0.0};
      return r.decided && (!want_exact || within_relative(value, error, tolerance_));
    };
    if (decide(e.cos_value, e.cos_error, cos_result) && decide(e.sin_value, e.sin_error, sin_result)) return true;
  }
  // What the double tier leaves (about one entry in 2^16 for float32: those
  // within its bound of a midpoint), and every entry of the other cases.
  const SinCosEnclosure e = first_step_sin_cos(p, f);
  const auto decide = [&](DoubleWord value, double error, RotaryEntryResult& out) {
    scale(factor_, value, error);
    const std::optional<double> r = decided_rounding(value, error, format_);
    if (!r) return false;
    out.rounded = *r;
    out.exact = {value.hi, value.lo};
    if (!want_exact) return true;
    return exact_ == ExactValues::full ? good_as_exact(value, error) : within_relative(value.hi, error, tolerance_);
  };
  return decide(e.cos_value, e.cos_error, cos_result) && decide(e.sin_value, e.sin_error, sin_result);
}

}  // namespace pecheck::reference
