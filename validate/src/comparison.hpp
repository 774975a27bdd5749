// The table against the correctly rounded reference, entry by entry, on every
// row or on a deterministic sample of rows when the table is large.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "pecheck/accuracy/accumulator.hpp"
#include "pecheck/accuracy/angle_allowance.hpp"
#include "pecheck/accuracy/measurement.hpp"
#include "pecheck/convention.hpp"
#include "pecheck/table.hpp"

namespace pecheck::validate {

struct ComparisonPlan {
  std::int64_t sample_rows = 0;  // 0: compare every row; N: sample N rows (at least 64)
  int threads = 0;
  std::function<void(std::int64_t, std::int64_t)> progress;
  accuracy::HistogramCounting histogram = accuracy::HistogramCounting::counted;
};

// File rows to compare, ascending: all of them unless sample_rows asks for
// fewer; then `priority` (the worst rows found by the fast scan), the first
// and last rows, rows whose positions straddle powers of two, then blocks of
// 8 successive rows spread evenly, up to sample_rows rows (at least 64).
std::vector<std::int64_t> rows_to_compare(std::int64_t rows, std::int64_t dim, std::int64_t row_offset,
                                          const std::vector<std::int64_t>& priority, const ComparisonPlan& plan);

// How far the exact values the comparisons measure against may be from the
// true values, relatively: 2^-(p + 20) for a format of precision p (the
// reference's ExactValues::for_format), so each ULP error is right to 2^-20 ULP.
double comparison_exact_tolerance(FormatId format);

// What a comparison finds out besides its statistics.
struct ComparisonFacts {
  std::int64_t escalations = 0;          // the entries the reference left to MPFR
  bool values_in_unit_interval = false;  // every value compared is finite and in [-1, 1]
};

// Statistics of `rows` of the table (file rows; convention row = file row +
// row_offset) against the reference, with the budget and, when given, the
// allowance that judges entries beyond it again. The worst inputs' rows are
// file rows. Streamed: the reference is computed row by row on plan.threads
// workers and folded into statistics as it comes; no exact value is kept
// per entry.
accuracy::Measurement compare_with_reference(const Table& table, const Convention& convention,
                                               std::int64_t row_offset, const std::vector<std::int64_t>& rows,
                                               double budget_ulp, const std::string& budget_source,
                                               const accuracy::Allowance* allowance,
                                               const ComparisonPlan& plan, ComparisonFacts& facts);

// The same figures the straightforward way: the reference table of each run
// of rows with every exact value stored, then measure_accuracy over it (the
// test oracle of compare_with_reference; about 20 times slower).
accuracy::Measurement compare_through_tables(const Table& table, const Convention& convention,
                                               std::int64_t row_offset, const std::vector<std::int64_t>& rows,
                                               double budget_ulp, const std::string& budget_source,
                                               const accuracy::Allowance* allowance,
                                               const ComparisonPlan& plan, std::int64_t& escalations);

}  // namespace pecheck::validate
