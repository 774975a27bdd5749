#include "rotary_tiers.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>

#include "enclosure_decision.hpp"
#include "first_step.hpp"
#include "pecheck/reference/nearest_rounding.hpp"
#include "rotary_model_angles.hpp"
#include "rotated_rounding.hpp"
#include "rotated_steps.hpp"
#include "scaled_enclosure.hpp"

namespace pecheck::reference {

namespace {

// The double tier's plain-double enclosure needs half a spacing of the
// format to hold a double spacing (narrow_rounding's exactness argument).
constexpr int double_tier_max_precision = 26;

}  // namespace

std::vector<StepsFrequency> rotary_tier_frequencies(const RotaryConvention& convention,
                                                    const std::optional<ComputationModel>& model) {
  std::vector<StepsFrequency> out;
  if (model) return out;
  const RotaryDerived derived = rotary_derived(convention);
  for (std::int64_t i = 0; i < derived.frequencies; ++i) out.push_back(rotary_steps_frequency(convention, derived, i));
  return out;
}

RotaryTiers::RotaryTiers(const RotaryConvention& convention, const std::optional<ComputationModel>& model,
                         RotaryEntryEvaluator& model_source, const std::vector<StepsFrequency>& frequencies,
                         const Format& format, ExactValues exact, RoundedValues rounded)
    : convention_(convention),
      derived_(rotary_derived(convention_)),
      model_(model),
      model_source_(model_source),
      frequencies_(frequencies),
      format_(format),
      exact_(exact),
      rounded_(exact == ExactValues::none ? RoundedValues::decided : rounded),
      // No exact value wanted: any enclosure the rounding accepts will do.
      tolerance_(exact == ExactValues::none ? std::numeric_limits<double>::infinity()
                                            : exact_tolerance(exact, format.id)),
      factor_(model ? pecheck::round_to_format(derived_.attention_factor, format_of(model->angle))
                    : derived_.attention_factor),
      double_tier_(format.precision <= double_tier_max_precision && exact != ExactValues::full),
      row_frequencies_(std::vector<StepsFrequency>{}) {
  if (double_tier_) narrow_ = narrow_format(format);
  const auto n = static_cast<std::size_t>(derived_.frequencies);
  if (model_) {
    for (std::int64_t i = 0; i < derived_.frequencies; ++i) model_inv_freq_.push_back(model_source_.model_inv_freq(i));
  } else if (frequencies_.size() != n) {
    throw std::logic_error("rotary tiers: expected the frequencies of rotary_tier_frequencies (this is a bug)");
  } else {
    exact_frequencies_ = std::make_unique<StepsFrequencies>(frequencies_);
    if (double_tier_) {
      angle_sum_ = std::make_unique<AngleSumTier>(frequencies_, factor_, narrow_, tolerance_,
                                                  rounded_ == RoundedValues::decided);
    }
  }
  row_positions_.resize(n);
  row_applies_.resize(n);
  for (std::vector<double>* v : {&row_frequencies_.f0, &row_frequencies_.f1, &row_frequencies_.f2,
                                 &row_frequencies_.error}) {
    v->resize(n);
  }
}

bool RotaryTiers::first_step_angle(std::int64_t position, std::int64_t frequency, std::int64_t& steps_position,
                                   StepsFrequency& steps) {
  const auto k = static_cast<std::size_t>(frequency);
  if (model_) {
    const double p = round_nearest(static_cast<double>(position), format_of(model_->position));
    return model_first_step_angle(p, model_inv_freq_[k], format_of(model_->angle), steps_position, steps);
  } else {
    steps_position = position;
    steps = frequencies_[k];
  }
  return first_step_applies(steps_position, steps);
}

bool RotaryTiers::settle_row(std::int64_t position, RowDecisions& out, bool& whole) {
  whole = false;
  if (!double_tier_) return false;
  // The exact encoding: the angle-sum tier first, the double tier for what
  // it leaves (a frequency that never rotates, a value near a zero or
  // within its bound of a rounding boundary), entry by entry.
  if (angle_sum_) {
    if (angle_sum_->settle(position, out) == 0) {
      whole = true;
      return true;
    }
    double_tier_row(position, leftover_);
    for (std::size_t i = 0; i < out.cos_done.size(); ++i) {
      if (out.cos_done[i] || !leftover_.cos_done[i]) continue;
      out.cos_rounded[i] = leftover_.cos_rounded[i];
      out.sin_rounded[i] = leftover_.sin_rounded[i];
      out.cos_hi[i] = leftover_.cos_hi[i];
      out.sin_hi[i] = leftover_.sin_hi[i];
      out.cos_done[i] = 1;
      out.sin_done[i] = 1;
    }
  } else {
    double_tier_row(position, out);
  }
  // cos_done and sin_done agree: both settled, or neither.
  whole = std::all_of(out.cos_done.begin(), out.cos_done.end(), [](unsigned char done) { return done != 0; });
  return true;
}

void RotaryTiers::double_tier_row(std::int64_t position, RowDecisions& out) {
  const std::size_t n = row_positions_.size();
  // The exact encoding's frequencies are the same in every row: when the
  // first step applies to the whole row, only the position changes.
  if (!model_ && exact_frequencies_ && first_step_applies_to_row(position, *exact_frequencies_)) {
    std::fill(row_positions_.begin(), row_positions_.end(), static_cast<double>(position));
    double_tier_entries(row_positions_.data(), *exact_frequencies_, factor_, narrow_, tolerance_, out);
    for (std::size_t i = 0; i < n; ++i) {
      const unsigned char done = out.cos_done[i] & out.sin_done[i];
      out.cos_done[i] = done;
      out.sin_done[i] = done;
    }
    return;
  }
  if (model_) {
    // A model's row: its binary angles in one loop (rotary_model_angles.hpp).
    const double p = round_nearest(static_cast<double>(position), format_of(model_->position));
    model_row_angles(p, model_inv_freq_, format_of(model_->angle), row_positions_.data(), row_frequencies_,
                     row_applies_.data());
  } else {
    for (std::size_t i = 0; i < n; ++i) {
      std::int64_t p = 0;
      StepsFrequency f;
      const bool applies = first_step_angle(position, static_cast<std::int64_t>(i), p, f);
      // An entry the first step does not apply to is evaluated at a harmless
      // stand-in (position 1, frequency 1 step) and left undecided.
      row_applies_[i] = applies;
      row_positions_[i] = applies ? static_cast<double>(p) : 1.0;
      row_frequencies_.f0[i] = applies ? f.f0 : 1.0;
      row_frequencies_.f1[i] = applies ? f.f1 : 0.0;
      row_frequencies_.f2[i] = applies ? f.f2 : 0.0;
      row_frequencies_.error[i] = applies ? f.error : 0.0;
    }
  }
  double_tier_entries(row_positions_.data(), row_frequencies_, factor_, narrow_, tolerance_, out);
  for (std::size_t i = 0; i < n; ++i) {
    const unsigned char done = out.cos_done[i] & out.sin_done[i] & row_applies_[i];
    out.cos_done[i] = done;
    out.sin_done[i] = done;
  }
}

bool RotaryTiers::settle(std::int64_t position, std::int64_t frequency, RotaryEntryResult& cos_result,
                         RotaryEntryResult& sin_result) {
  // A pair that never rotates (the proportional form's tail, a fitted 0):
  // the angle is exactly 0 at every position, cos 0 = 1 and sin 0 = +0, the
  // entries the factor and +0 (as RotaryEntryEvaluator's zero angle).
  const auto k = static_cast<std::size_t>(frequency);
  const bool never_rotates = model_ ? model_inv_freq_[k] == 0.0
                                    : frequency >= derived_.rotated_frequencies ||
                                          (convention_.scaling.kind == RotaryScalingKind::fitted &&
                                           convention_.scaling.inv_freq[k] == 0.0);
  if (never_rotates) {
    cos_result.rounded = pecheck::round_to_format(factor_, format_);
    cos_result.exact = {factor_, 0.0};
    sin_result.rounded = 0.0;
    sin_result.exact = {0.0, 0.0};
    return true;
  }
  std::int64_t p = 0;
  StepsFrequency f;
  if (!first_step_angle(position, frequency, p, f)) return false;
  const bool want_exact = exact_ != ExactValues::none;
  // What the double tier leaves (about one entry in 2^16 for float32: those
  // within its bound of a midpoint), and every entry of the other cases.
  const SinCosEnclosure e = first_step_sin_cos(p, f);
  const auto decide = [&](DoubleWord value, double error, RotaryEntryResult& out) {
    scale_enclosure(factor_, value, error);
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
