// One rotary reference row, every frequency: the cheap tiers over the row
// (rotary_tiers.hpp), the first step for what they leave, MPFR for the rest
// (RotaryEntryEvaluator). One per worker thread.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "pecheck/format.hpp"
#include "pecheck/reference/reference.hpp"
#include "pecheck/rotary_convention.hpp"
#include "rotary_entry.hpp"
#include "rotary_tiers.hpp"
#include "row_decisions.hpp"

namespace pecheck::reference {

// Frequency i's cos and sin (index i, not a column).
struct RotaryRowResults {
  std::vector<RotaryEntryResult> cos, sin;
};

class RotaryRowEvaluator {
 public:
  // tier_frequencies: rotary_tier_frequencies(convention, model), shared by
  // the workers; it must outlive this. With RoundedValues::skipped the
  // rounded values of the results hold no answer (RotaryTiers).
  RotaryRowEvaluator(const RotaryConvention& convention, const std::optional<ComputationModel>& model,
                     const std::vector<StepsFrequency>& tier_frequencies, const Format& format, ExactValues exact,
                     RoundedValues rounded = RoundedValues::decided);

  void evaluate(std::int64_t position, RotaryRowResults& out);

  // evaluate() in two steps, for a caller that takes a row of plain exact
  // values as it is: settle_plain runs the double tier over the row and is
  // true when it settled every entry (decisions() then holds the row, every
  // exact value a plain double); otherwise finish() does the rest of
  // evaluate() for the same position.
  bool settle_plain(std::int64_t position);
  const RowDecisions& decisions() const { return row_; }
  void finish(std::int64_t position, RotaryRowResults& out);

  std::int64_t escalations() const { return escalations_; }    // MPFR's first precision undecided
  std::int64_t mpfr_entries() const { return mpfr_entries_; }  // values left to MPFR

 private:
  RotaryEntryEvaluator evaluator_;
  RotaryTiers tiers_;
  const Format& format_;
  bool want_exact_;
  std::int64_t frequencies_;
  RowDecisions row_;
  bool row_settled_ = false;  // the double tier ran over the last row settle_plain saw
  std::int64_t escalations_ = 0;
  std::int64_t mpfr_entries_ = 0;
};

}  // namespace pecheck::reference
