#include "rotary_entry.hpp"

#include <cmath>
#include <stdexcept>
#include <string>

#include "format_rounding.hpp"
#include "pecheck/rotary_frequency.hpp"
#include "rotary_arithmetic.hpp"

namespace pecheck::reference {

namespace {

// First working precision of sin and cos: about twice what float64 needs, so
// a second try is rare (as entry_evaluator.hpp's default_first_precision).
constexpr mpfr_prec_t first_precision = 128;
// The frequency carries this many bits more than sin and cos: its relative
// error 2^(16 - P - 64) times |theta| < 2^24 is 2^(-24 - P), below the
// rounding of sin and cos at P.
constexpr mpfr_prec_t frequency_guard_bits = 64;
constexpr mpfr_prec_t error_bits = 64;

mpfr_prec_t level_precision(std::size_t level) { return first_precision << level; }

// value = factor * T with T = RN_P(sin or cos of an argument known to
// theta_radius), factor an exact double: |value - exact| is bounded by
//   factor (2^-P |T| + theta_radius)   (sin and cos are 1-Lipschitz)
// + 2^-P |value|                        (the product's rounding, when factor != 1).
void scale_and_bound(mpfr_srcptr t, double factor, mpfr_srcptr theta_radius, mpfr_prec_t precision, Real& value,
                     Real& error) {
  mpfr_set_prec(raw(value), precision);
  mpfr_set_prec(raw(error), error_bits);
  mpfr_abs(raw(error), t, MPFR_RNDU);
  mpfr_mul_2si(raw(error), raw(error), -precision, MPFR_RNDU);
  mpfr_add(raw(error), raw(error), theta_radius, MPFR_RNDU);
  if (factor == 1.0) {
    mpfr_set(raw(value), t, MPFR_RNDN);  // exact: same precision
    return;
  }
  mpfr_mul_d(raw(value), t, factor, MPFR_RNDN);
  mpfr_mul_d(raw(error), raw(error), std::fabs(factor), MPFR_RNDU);
  Real product_error = make_real(error_bits);
  mpfr_abs(raw(product_error), raw(value), MPFR_RNDU);
  mpfr_mul_2si(raw(product_error), raw(product_error), -precision, MPFR_RNDU);
  mpfr_add(raw(error), raw(error), raw(product_error), MPFR_RNDU);
}

// Takes what the enclosure decides; true when nothing is left to decide.
bool decide(mpfr_srcptr value, mpfr_srcptr error, const Format*& format, bool& want_exact, RotaryEntryResult& out) {
  if (format != nullptr) {
    if (const std::optional<double> rounded = decide_rounding(value, error, *format)) {
      out.rounded = *rounded;
      format = nullptr;
    }
  }
  if (want_exact) {
    if (const std::optional<DoubleDouble> pair = decide_exact_pair(value, error)) {
      out.exact = *pair;
      want_exact = false;
    }
  }
  return format == nullptr && !want_exact;
}

}  // namespace

RotaryEntryEvaluator::RotaryEntryEvaluator(const RotaryConvention& convention,
                                           const std::optional<ComputationModel>& model)
    : convention_(convention), derived_(rotary_derived(convention_)), model_(model) {
  model_frequencies_.resize(static_cast<std::size_t>(derived_.frequencies));
}

RotaryEntryEvaluator::~RotaryEntryEvaluator() = default;

const Real& RotaryEntryEvaluator::exact_frequency(std::size_t level, std::int64_t frequency) {
  if (exact_frequencies_.size() <= level) exact_frequencies_.resize(level + 1);
  auto& slots = exact_frequencies_[level];
  if (slots.empty()) slots.resize(static_cast<std::size_t>(derived_.frequencies));
  auto& slot = slots[static_cast<std::size_t>(frequency)];
  if (!slot) {
    NearestArithmetic arithmetic(level_precision(level) + frequency_guard_bits);
    slot = std::make_unique<Real>(rotary_inv_freq(convention_, derived_, frequency, arithmetic));
  }
  return *slot;
}

// The model's inv_freq: stepwise, every operation of the rule correctly
// rounded to the format; or the exact inv_freq rounded once (Ziv, with the
// rule's error bound 2^(16 - P) relative at P bits).
double RotaryEntryEvaluator::model_inv_freq(std::int64_t frequency) {
  if (!model_) throw std::logic_error("rotary reference: no computation model");
  std::optional<double>& slot = model_frequencies_[static_cast<std::size_t>(frequency)];
  if (slot) return *slot;
  const Format& format = format_of(model_->inv_freq);
  if (model_->inv_freq_rule == InvFreqRule::stepwise) {
    FormatArithmetic arithmetic(format);
    slot = rotary_inv_freq(convention_, derived_, frequency, arithmetic);
    return *slot;
  }
  for (std::size_t level = 0; level_precision(level) <= max_working_bits; ++level) {
    const Real& w = exact_frequency(level, frequency);
    // A pair that never rotates (the proportional form's tail, a fitted 0):
    // the rule returns an exact 0, no rounding to decide.
    if (mpfr_zero_p(raw(w))) {
      slot = 0.0;
      return *slot;
    }
    Real error = make_real(error_bits);
    mpfr_abs(raw(error), raw(w), MPFR_RNDU);
    mpfr_mul_2si(raw(error), raw(error), rotary_frequency_error_offset - mpfr_get_prec(raw(w)), MPFR_RNDU);
    if (const std::optional<double> rounded = decide_rounding(raw(w), raw(error), format)) {
      slot = *rounded;
      return *slot;
    }
  }
  throw std::logic_error("rotary reference: inv_freq undecided at the largest precision (this is a bug)");
}

// The exact target: theta = p inv_freq_i with inv_freq_i at P + 64 bits and
// the product exact (a position below 2^63 has at most 63 bits), so
// |theta - p w| <= |theta| 2^(16 - P - 64) (rotary_arithmetic.cpp), then
// scale_and_bound. The model target: the angle is a binary number of its
// format, exact; its cos and sin are rounded at P and scaled by the attention
// factor rounded to the angle's format (a Python float times a float32 tensor).
void RotaryEntryEvaluator::evaluate(std::int64_t position, std::int64_t frequency, const Format* format,
                                    bool want_exact, RotaryEntryResult& cos_result, RotaryEntryResult& sin_result) {
  cos_result = RotaryEntryResult{};
  sin_result = RotaryEntryResult{};
  double factor = derived_.attention_factor;
  double angle = 0.0;  // the model's binary angle
  if (model_) {
    const double inv_freq = model_inv_freq(frequency);
    const double p = pecheck::round_to_format(static_cast<double>(position), format_of(model_->position));
    const Format& angle_format = format_of(model_->angle);
    Real product = make_real(128);
    mpfr_set_d(raw(product), p, MPFR_RNDN);
    mpfr_mul_d(raw(product), raw(product), inv_freq, MPFR_RNDN);  // exact: 53 + 53 bits
    RoundingScratch scratch;
    angle = round_to_format(raw(product), angle_format, scratch);
    factor = pecheck::round_to_format(factor, angle_format);
  }
  // A frequency of exactly 0 (a fitted rule's pair that never rotates) gives
  // the angle 0 at every position.
  const bool zero_angle =
      model_ ? angle == 0.0 : position == 0 || mpfr_zero_p(raw(exact_frequency(0, frequency))) != 0;
  last_zero_angle_ = zero_angle;
  if (zero_angle) {
    // cos 0 = 1 and sin 0 = +0 exactly: the entries are the factor and +0.
    if (format != nullptr) cos_result.rounded = pecheck::round_to_format(factor, *format);
    cos_result.exact = {factor, 0.0};
    return;
  }
  const Format* cos_format = format;
  const Format* sin_format = format;
  bool cos_exact = want_exact;
  bool sin_exact = want_exact;
  bool cos_open = true;
  bool sin_open = true;
  for (std::size_t level = 0; cos_open || sin_open; ++level) {
    const mpfr_prec_t precision = level_precision(level);
    if (precision > max_working_bits) {
      throw std::logic_error("rotary reference: an entry is undecided at " + std::to_string(max_working_bits) +
                             " bits; the error bound or the rounding is wrong (this is a bug)");
    }
    Real theta = make_real(128);
    Real theta_radius = make_real(error_bits);
    if (model_) {
      mpfr_set_d(raw(theta), angle, MPFR_RNDN);  // exact
    } else {
      const Real& w = exact_frequency(level, frequency);
      mpfr_set_prec(raw(theta), mpfr_get_prec(raw(w)) + 64);
      mpfr_mul_si(raw(theta), raw(w), static_cast<long>(position), MPFR_RNDN);  // exact
      mpfr_abs(raw(theta_radius), raw(theta), MPFR_RNDU);
      mpfr_mul_2si(raw(theta_radius), raw(theta_radius), rotary_frequency_error_offset - mpfr_get_prec(raw(w)),
                   MPFR_RNDU);
    }
    Real c = make_real(precision);
    Real s = make_real(precision);
    mpfr_sin_cos(raw(s), raw(c), raw(theta), MPFR_RNDN);
    Real value = make_real(precision);
    Real error = make_real(error_bits);
    if (cos_open) {
      scale_and_bound(raw(c), factor, raw(theta_radius), precision, value, error);
      cos_open = !decide(raw(value), raw(error), cos_format, cos_exact, cos_result);
      if (level == 0) cos_result.escalated = cos_open;
    }
    if (sin_open) {
      scale_and_bound(raw(s), factor, raw(theta_radius), precision, value, error);
      sin_open = !decide(raw(value), raw(error), sin_format, sin_exact, sin_result);
      if (level == 0) sin_result.escalated = sin_open;
    }
  }
}

}  // namespace pecheck::reference
