// The statistics of a sweep, kept so that any split of the entries into
// parts, merged in any order, gives the statistics of one pass over all of
// them, exactly: counts are integers, the sum of squared ULP errors is an
// ExactSquareSum, and each "worst" entry is chosen by a total order (larger
// error first, then the smaller (width, row, column)), never by which part
// came first.
#pragma once

#include <compare>
#include <cstdint>
#include <optional>

#include "pecheck/double_double.hpp"
#include "pecheck/format.hpp"
#include "pecheck/sweep/square_sum.hpp"
#include "pecheck/ulp.hpp"

namespace pecheck::sweep {

// Where an entry is: width, table row, column. Ordered lexicographically.
struct EntryKey {
  std::int64_t dim = 0;
  std::int64_t row = 0;
  std::int64_t column = 0;

  auto operator<=>(const EntryKey&) const = default;
};

// One compared entry: the subject's value against the exact value.
struct SweepEntry {
  EntryKey key;
  std::int64_t position = 0;  // the position row `key.row` holds
  double value = 0.0;         // the subject's value, a value of the format
  DoubleDouble exact;         // the reference's exact value (about 106 bits)
  UlpError error;             // of value against exact in the format
  double abs_error = 0.0;     // |value - exact|

  bool operator==(const SweepEntry& other) const;
};

// The entry for (key, position, value, exact) in the format, with its errors.
SweepEntry compare_entry(const EntryKey& key, std::int64_t position, double value, DoubleDouble exact,
                         const Format& format);

struct SweepStatistics {
  std::int64_t entries = 0;        // compared
  std::int64_t mismatches = 0;     // typed mismatches (NaN, infinity, signed zero): not in the ULP figures
  std::int64_t beyond_budget = 0;  // measured entries with a ULP error above the budget
  std::int64_t escalations = 0;    // reference entries whose rounding needed more precision than the first try
  ExactSquareSum sum_squares_ulp;  // over the measured entries (entries - mismatches)
  std::optional<SweepEntry> worst_ulp;        // the largest ULP error
  std::optional<SweepEntry> worst_abs_error;  // the largest absolute error
  std::optional<SweepEntry> first_mismatch;   // the typed mismatch with the smallest key

  std::int64_t measured() const { return entries - mismatches; }
  // sqrt(sum of squares / measured), 0 when nothing was measured.
  double rms_ulp() const;
  // No typed mismatch and no entry beyond the budget.
  bool held() const { return mismatches == 0 && beyond_budget == 0; }

  bool operator==(const SweepStatistics&) const = default;
};

// Counts one entry against the ULP budget.
void record(SweepStatistics& statistics, const SweepEntry& entry, double budget_ulp);

// total := the statistics of total's entries and part's together. The two
// must hold disjoint entries; the result does not depend on the order.
void merge_into(SweepStatistics& total, const SweepStatistics& part);

}  // namespace pecheck::sweep
