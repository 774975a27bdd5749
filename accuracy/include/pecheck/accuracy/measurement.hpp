// What comparing values with their exact values yields: a Measurement (max
// and RMS ULP, max abs error, the worst input, a histogram) against a ULP
// budget and, for subjects whose computation may err more, an absolute bound.
// The accumulator produces them; properties' Outcome carries them; reports/
// and validate/ render them.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "pecheck/double_double.hpp"
#include "pecheck/format.hpp"

namespace pecheck::accuracy {

// The entry with the largest ULP error, Boost.Math style.
struct WorstInput {
  std::int64_t row = 0;       // table row (position = row + offset of the request)
  std::int64_t position = 0;
  std::int64_t column = 0;
  double value = 0.0;         // what the subject produced
  std::string value_hex;      // its bit pattern in the format
  DoubleDouble exact;         // the exact value to ~106 bits
  std::string exact_text;     // the exact value in decimal, 21 significant digits
  double abs_error = 0.0;     // |value - exact|, shown beside the ULP error
  double ulps = 0.0;          // its ULP error (a typed mismatch is never a worst input)
  std::string convention;     // the preset it belongs to, when a measurement spans several
};

struct Histogram {
  std::vector<double> upper_edges;      // bin i counts values <= upper_edges[i] (and > the previous edge)
  std::vector<std::int64_t> counts;     // same length
};

// The entries beyond the ULP budget, judged again against an absolute bound
// of the error the subject's computation may have (an Allowance,
// allowance.hpp). An entry passes when it is within the ULP budget or within
// the bound.
struct AbsoluteBoundCheck {
  std::string name;               // "the float64-angle bound"
  std::string source;             // its derivation, in one sentence
  std::int64_t beyond_ulp = 0;    // entries beyond the ULP budget (typed mismatches apart)
  std::int64_t beyond_bound = 0;  // of those, beyond the bound too: the entries that fail
  double worst_ratio = 0.0;       // the largest |error| / bound among them
  WorstInput worst;               // that entry (when beyond_ulp > 0)
  double worst_ulp = 0.0;
  double worst_bound = 0.0;
};

// The largest errors block by block of a sweep over positions: what the
// report's ulp-error-by-position figure plots.
struct PositionProfile {
  std::vector<double> positions;      // first position of each block
  std::vector<double> max_ulp;        // NaN where the block had only typed mismatches
  std::vector<double> max_abs_error;
};

// A measurement's statistics against its budget.
struct Measurement {
  FormatId format = FormatId::float32;
  std::int64_t entries = 0;
  std::int64_t beyond_budget = 0;       // measured entries above budget_ulp, before any allowance judges them
  double max_ulp = 0.0;
  double rms_ulp = 0.0;
  double max_abs_error = 0.0;
  WorstInput worst;
  std::int64_t mismatches = 0;          // typed mismatches (signed zero, NaN, infinity), counted apart
  Histogram ulp_histogram;
  double budget_ulp = 0.0;              // the budget the max was held against
  std::string budget_source;            // where the budget comes from (derivation or measurement)
  std::optional<AbsoluteBoundCheck> abs_bound;  // when entries may pass by an absolute bound instead
  // Reference entries behind these figures that the oracle's cheap tiers
  // could not decide and MPFR did (how hard the reference worked, not an error).
  std::int64_t reference_escalations = 0;
  // Set when a check measures each convention apart (the accuracy sweep).
  std::string convention;
  std::int64_t dim = 0;
  std::optional<PositionProfile> profile;
  // The measured entry whose exact value is nearest a zero of sin or cos
  // (the smallest nonzero |exact|): where an absolute tolerance says nothing
  // and a ULP error is hardest to keep (CORE-MATH's hard cases near zeros).
  std::optional<WorstInput> nearest_zero;
  // Set on a row that sums every convention a check swept in one format (the
  // headline accuracy table's rows); `convention` is then empty.
  bool every_convention = false;
};

// The histogram's upper bin edges in ULP, and the count of one error into it.
std::vector<double> ulp_histogram_edges();
void count_in_histogram(Histogram& histogram, double ulps);

// total := the statistics of total's entries and part's entries together
// (max, RMS from the sums of squares, histogram counts, the worse worst
// input, the absolute-bound counts). An empty total takes part's format,
// budget and histogram edges. For Measurements already made; entries still
// being compared merge exactly in an Accumulator (accumulator.hpp).
void merge_measurement(Measurement& total, const Measurement& part);

// Whether a measurement is within its budget: no typed mismatch, and the
// largest ULP error at most the budget or, with an absolute bound, no entry
// beyond both.
bool within_budget(const Measurement& measurement);

// "float32: max 0.5 ULP (budget 1), RMS 0.21, max abs 2.9e-08, 123456 entries, worst at ...".
std::string summary(const Measurement& measurement);
// "12 entries beyond the ULP budget, all within the float64-angle bound (largest |error| / bound 0.2 at ...)".
std::string abs_bound_text(const AbsoluteBoundCheck& check);

// The entries that fail: typed mismatches, and those beyond the budget and
// beyond the allowance when one judged them.
inline std::int64_t failing_entries(const Measurement& m) {
  return m.mismatches + (m.abs_bound ? m.abs_bound->beyond_bound : m.beyond_budget);
}

}  // namespace pecheck::accuracy
