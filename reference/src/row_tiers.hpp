// The oracle's cheap tiers over a whole row: the double tier (double_tier.cpp)
// for formats narrower than float64 when the exact values asked for allow
// it, the double-word tier (first_step.cpp) otherwise. What they leave
// undecided the table builder sends entry by entry to the double-word tier
// and MPFR (EntryEvaluator::sin_cos).
#pragma once

#include <cstdint>

#include "double_tier.hpp"
#include "entry_evaluator.hpp"
#include "first_step.hpp"
#include "pecheck/format.hpp"
#include "pecheck/reference/reference.hpp"
#include "row_decisions.hpp"

namespace pecheck::reference {

class RowTiers {
 public:
  // With RoundedValues::skipped an entry is settled once its exact value is;
  // its rounding is left undecided (the rounded arrays hold no answer).
  RowTiers(const Format& format, ExactValues exact, RoundedValues rounded);

  // Settles what it can of the row at `position` into `out` (entry i is
  // frequency i); false, with nothing settled, when no cheap tier applies.
  bool settle(EntryEvaluator& evaluator, std::int64_t position, RowDecisions& out);

  // Whether the double tier runs (its undecided entries are the fallbacks
  // ReferenceTable::double_word_fallbacks counts).
  bool double_tier() const { return double_tier_; }

 private:
  Format format_;
  NarrowFormat narrow_{};
  bool double_tier_ = false;
  bool decide_rounding_ = true;
  double tolerance_;          // exact_tolerance: the relative accuracy of an acceptable exact value
  RowEnclosures enclosures_;  // the double-word tier's, reused row after row
};

}  // namespace pecheck::reference
