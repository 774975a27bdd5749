// The rotary oracle's cheap tiers, before MPFR, on the angle as the first
// step sees it (rotated_steps.hpp: p and F_i for the exact encoding, a
// model's binary angle m 2^e as m and 2^e N / (2 pi)):
//   - settle_row: for the exact encoding the angle-sum tier first
//     (angle_sum_tier.hpp: rows rotated from anchor rows), then
//     the double tier (double_tier.hpp) over a whole row, when
//     the format is narrower than float64 and the exact values are wanted
//     to the format's accuracy at most, values scaled by the attention factor;
//   - settle: the double-word first step (first_step.hpp), entry by entry,
//     for what the row left.
// An entry pair is settled only when both cos and sin are (their rounding and
// the exact value wanted); anything else, the zero angles among it, goes to
// RotaryEntryEvaluator, which decides it from scratch.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <vector>

#include "angle_sum_tier.hpp"
#include "double_tier.hpp"
#include "pecheck/format.hpp"
#include "pecheck/reference/reference.hpp"
#include "pecheck/rotary_convention.hpp"
#include "rotary_entry.hpp"
#include "first_step.hpp"
#include "row_decisions.hpp"
#include "steps_frequency.hpp"

namespace pecheck::reference {

// The exact encoding's F_i in steps (MPFR, a few microseconds each), computed
// once and shared by every worker's tiers; empty for a computation model.
std::vector<StepsFrequency> rotary_tier_frequencies(const RotaryConvention& convention,
                                                    const std::optional<ComputationModel>& model);

class RotaryTiers {
 public:
  // `model_source` supplies a model's inv_freq, `frequencies` are
  // rotary_tier_frequencies(convention, model); both must outlive this.
  RotaryTiers(const RotaryConvention& convention, const std::optional<ComputationModel>& model,
              RotaryEntryEvaluator& model_source, const std::vector<StepsFrequency>& frequencies,
              const Format& format, ExactValues exact, RoundedValues rounded = RoundedValues::decided);
  // derived_ may point into convention_ (as RotaryEntryEvaluator's does): not copied.
  RotaryTiers(const RotaryTiers&) = delete;
  RotaryTiers& operator=(const RotaryTiers&) = delete;

  // The cheap tiers over row `position` (the exact encoding's angle-sum tier,
  // then the double tier): out's entry i is frequency i's, done when both cos
  // and sin are settled (RowDecisions: cos_done & sin_done). False, with
  // nothing settled, when the double tier does not apply (nor the angle sum,
  // which decides its roundings the same way). With RoundedValues::skipped
  // the angle sum settles an entry by its exact values alone, and the
  // rounded values of such an entry hold no answer.
  // Returns whether it ran (a target with a double tier), and in `whole`
  // whether every entry came out settled.
  bool settle_row(std::int64_t position, RowDecisions& out, bool& whole);

  // True when cos and sin of (position, frequency) are both settled: their
  // rounded values, and their exact values within the tolerance of `exact`
  // unless ExactValues::none.
  bool settle(std::int64_t position, std::int64_t frequency, RotaryEntryResult& cos_result,
              RotaryEntryResult& sin_result);

 private:
  // The double tier alone over the row (settle_row's fallback).
  void double_tier_row(std::int64_t position, RowDecisions& out);

  // The first step's position and frequency for this entry, when it applies.
  bool first_step_angle(std::int64_t position, std::int64_t frequency, std::int64_t& steps_position,
                        StepsFrequency& steps);

  RotaryConvention convention_;
  RotaryDerived derived_;
  std::optional<ComputationModel> model_;
  RotaryEntryEvaluator& model_source_;
  const std::vector<StepsFrequency>& frequencies_;  // the exact target's F_i
  Format format_;
  ExactValues exact_;
  RoundedValues rounded_;
  double tolerance_ = 0.0;  // exact_tolerance(exact, format), infinite for none
  double factor_ = 1.0;     // the attention factor as the target applies it
  bool double_tier_ = false;
  NarrowFormat narrow_{};
  std::vector<double> model_inv_freq_;  // the model's inv_freq_i
  // settle_row's inputs, reused row after row: each entry's first-step
  // position and frequency, and whether the first step applies to it.
  std::vector<double> row_positions_;
  StepsFrequencies row_frequencies_;
  std::vector<unsigned char> row_applies_;
  std::unique_ptr<StepsFrequencies> exact_frequencies_;  // frequencies_ column by column (the exact target)
  std::unique_ptr<AngleSumTier> angle_sum_;              // the exact target's, with the double tier
  RowDecisions leftover_;                                // the double tier's row where the angle sum left entries
};

}  // namespace pecheck::reference
