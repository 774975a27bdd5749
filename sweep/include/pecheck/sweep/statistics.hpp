// The statistics of a sweep: the accuracy accumulator's Tally (counts, the
// order-free sum of squared ULP errors, the worst entries keyed by (width,
// row, column)), which merges exactly, so that any split of the rows into
// parts, merged in any order, gives the statistics of one pass over all of
// them, bit for bit; and the reference's escalations beside it.
#pragma once

#include <cstdint>

#include "pecheck/accuracy/accumulator.hpp"

namespace pecheck::sweep {

struct SweepStatistics {
  // Entries keyed by (width, table row, column): EntryKey::table is the width.
  accuracy::Tally tally;
  std::int64_t escalations = 0;  // reference entries whose rounding needed more precision than the first try

  // No typed mismatch and no entry beyond the budget.
  bool held() const { return tally.mismatches == 0 && tally.beyond_budget == 0; }

  bool operator==(const SweepStatistics&) const = default;
};

// total := the statistics of total's entries and part's together. The two
// must hold disjoint entries; the result does not depend on the order.
void merge_into(SweepStatistics& total, const SweepStatistics& part);

}  // namespace pecheck::sweep
