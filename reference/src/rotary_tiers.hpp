// The rotary oracle's cheap tiers, entry by entry, before MPFR: the angle as
// the first step sees it (rotated_steps.hpp: p and F_i for the exact
// encoding, a model's binary angle m 2^e as m and 2^e N / (2 pi)), then
//   - the double tier (double_tier.hpp) when the format is narrower than
//     float64 and the exact values are wanted to the format's accuracy at
//     most, its value scaled by the attention factor;
//   - otherwise the double-word first step (first_step.hpp) when the factor
//     is 1.
// An entry pair is settled only when both cos and sin are (their rounding and
// the exact value wanted); anything else, the zero angles among it, goes to
// RotaryEntryEvaluator, which decides it from scratch.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "double_tier.hpp"
#include "pecheck/format.hpp"
#include "pecheck/reference/reference.hpp"
#include "pecheck/rotary_convention.hpp"
#include "rotary_entry.hpp"
#include "steps_frequency.hpp"

namespace pecheck::reference {

class RotaryTiers {
 public:
  // `model_source` supplies a model's inv_freq (it must outlive this).
  RotaryTiers(const RotaryConvention& convention, const std::optional<ComputationModel>& model,
              RotaryEntryEvaluator& model_source, const Format& format, ExactValues exact);
  // derived_ may point into convention_ (as RotaryEntryEvaluator's does): not copied.
  RotaryTiers(const RotaryTiers&) = delete;
  RotaryTiers& operator=(const RotaryTiers&) = delete;

  // True when cos and sin of (position, frequency) are both settled: their
  // rounded values, and their exact values within the tolerance of `exact`
  // unless ExactValues::none.
  bool settle(std::int64_t position, std::int64_t frequency, RotaryEntryResult& cos_result,
              RotaryEntryResult& sin_result);

 private:
  // The first step's position and frequency for this entry, when it applies.
  bool first_step_angle(std::int64_t position, std::int64_t frequency, std::int64_t& steps_position,
                        StepsFrequency& steps);

  RotaryConvention convention_;
  RotaryDerived derived_;
  std::optional<ComputationModel> model_;
  RotaryEntryEvaluator& model_source_;
  Format format_;
  ExactValues exact_;
  double tolerance_ = 0.0;  // exact_tolerance(exact, format), 0 for none
  double factor_ = 1.0;     // the attention factor as the target applies it
  bool double_tier_ = false;
  NarrowFormat narrow_{};
  DoubleTierConstants constants_{};
  std::vector<StepsFrequency> frequencies_;  // the exact target's F_i, filled on first use
  std::vector<char> frequency_known_;
  std::vector<double> model_inv_freq_;  // NaN until used
};

}  // namespace pecheck::reference
