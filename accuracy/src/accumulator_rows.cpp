// An accumulator's row (Accumulator::add_row): the ULP kernel's totals, the
// histogram's edges past the kernel's four, the kept entries, the
// allowance's pass over a row's entries beyond the budget. Compiled once per
// instruction-set variant (accumulator_kernels.hpp): the same figures in
// each (no contraction, no fast-math), only the vector width differs.
#include <algorithm>
#include <bit>
#include <cmath>
#include <limits>
#include <type_traits>

#include "accumulator_kernels.hpp"
#include "kept_entries.hpp"
#include "pecheck/accuracy/ulp_kernel.hpp"

namespace pecheck::accuracy {

namespace {

// How many of values[0, n) exceed edges[k], ..., edges[k + 3] (those below
// `passed`; the others count 0), in one pass: four independent sums, where a
// pass per edge is one long chain of dependent additions.
void count_above_four(const double* values, std::size_t n, const std::vector<double>& edges, std::size_t k,
                      std::size_t passed, std::int64_t above[4]) {
  double edge[4];
  for (std::size_t j = 0; j < 4; ++j) {
    edge[j] = k + j < passed ? edges[k + j] : std::numeric_limits<double>::infinity();
  }
  const double e0 = edge[0], e1 = edge[1], e2 = edge[2], e3 = edge[3];
  std::int64_t a0 = 0, a1 = 0, a2 = 0, a3 = 0;
  for (std::size_t e = 0; e < n; ++e) {
    const double x = values[e];
    a0 += x > e0 ? 1 : 0;
    a1 += x > e1 ? 1 : 0;
    a2 += x > e2 ? 1 : 0;
    a3 += x > e3 ? 1 : 0;
  }
  above[0] = a0;
  above[1] = a1;
  above[2] = a2;
  above[3] = a3;
}

inline DoubleDouble exact_at(std::span<const DoubleDouble> exact, std::size_t e) { return exact[e]; }
inline DoubleDouble exact_at(std::span<const double> exact, std::size_t e) { return {exact[e], 0.0}; }

}  // namespace

// The bounds of a row's entries (Allowance::row_bounds), for its judged pass.
template <typename Exact>
std::span<const double> Accumulator::row_bounds(std::int64_t row, const RowColumns& columns,
                                                std::span<const Exact> exact) {
  const std::size_t n = exact.size();
  bounds_.resize(n);
  if constexpr (std::is_same_v<Exact, double>) {
    allowance_->row_bounds(row, columns.column, columns.plan, exact, bounds_);
  } else {
    exact_hi_.resize(n);
    for (std::size_t e = 0; e < n; ++e) exact_hi_[e] = exact[e].hi;
    allowance_->row_bounds(row, columns.column, columns.plan, exact_hi_, bounds_);
  }
  return bounds_;
}

// The row's worst entry against the allowance: the first counted entry with
// the row's largest ratio (the one judge_beyond's strict comparison keeps,
// entry by entry), kept when it is not below the tally's. Reads the row's
// stored errors and bounds.
template <typename EntryAt>
void Accumulator::keep_worst_ratio(std::size_t n, const EntryAt& entry_at) {
  std::size_t worst = n;
  double worst_ratio = 0.0;
  for (std::size_t e = 0; e < n; ++e) {
    if (common_[e] == 0 || !(ulps_[e] > budget_ulp_)) continue;
    const double ratio = (bounds_[e] > 0.0 ? abs_[e] / bounds_[e] : std::numeric_limits<double>::infinity()) + 0.0;
    if (worst == n || ratio > worst_ratio) {
      worst = e;
      worst_ratio = ratio;
    }
  }
  if (worst == n) return;
  if (tally_.worst_ratio_entry && worst_ratio < tally_.worst_ratio) return;
  const ComparedEntry entry = entry_at(worst);
  if (!tally_.worst_ratio_entry || worst_ratio > tally_.worst_ratio ||
      (worst_ratio == tally_.worst_ratio && entry.key < tally_.worst_ratio_entry->key)) {
    tally_.worst_ratio = worst_ratio;
    tally_.worst_ratio_bound = bounds_[worst];
    tally_.worst_ratio_entry = entry;
  }
}

template <typename Value, typename Exact>
void Accumulator::add_values(std::span<const Value> values, std::span<const Exact> exact, std::int64_t row,
                             std::int64_t table, const RowColumns& columns) {
  const Format& format = format_of(format_);
  const std::size_t n = values.size();
  // Entry e's column, and how many entries each stands for (RowColumns).
  const auto column_of = [&](std::size_t e) {
    return columns.column.empty() ? static_cast<std::int64_t>(e) : columns.column[e];
  };
  const std::int64_t copies = columns.copies;
  // The row's totals first, without its entries' errors: most rows need
  // nothing more. A row that does (see below) is passed again, storing them.
  // With an allowance, a row with an entry beyond the budget is judged
  // against the allowance's bounds in a pass of its own
  // (row_ulp_errors_judged), which counts every histogram edge too. Where the
  // last row had such an entry (a comparison against a computation model has
  // many such rows in a row) the judged pass is the row's first: the same
  // totals, one pass fewer.
  // The row's worst ratio is kept only when it is not below the tally's:
  // ratios below it are not wanted (the same tally).
  const double ratio_floor = tally_.worst_ratio_entry ? tally_.worst_ratio : -1.0;
  // Without a histogram (HistogramCounting::left_out) the passes count the
  // budget alone: a judged row's count is its judgement's, a plain row's
  // totals.above[0].
  const bool histogram = !tally_.histogram.empty();
  const std::size_t budget_count = histogram ? row_thresholds - 1 : 0;
  RowJudgement judgement;
  const auto judged_pass = [&] {
    const std::span<const double> bounds = row_bounds(row, columns, exact);
    return histogram ? row_ulp_errors_judged(values, exact, format, judged_thresholds_, bounds, budget_ulp_,
                                             ratio_floor, judgement)
                     : row_ulp_budget_judged(values, exact, format, bounds, budget_ulp_, ratio_floor, judgement);
  };
  bool judged = allowance_ != nullptr && last_row_beyond_;
  RowTotals totals = judged      ? judged_pass()
                     : histogram ? row_ulp_errors(values, exact, format, thresholds_)
                                 : row_ulp_budget(values, exact, format, budget_ulp_);
  const double row_max = totals.max_ulps;
  const bool beyond = allowance_ != nullptr && row_max > budget_ulp_;
  // Written only when it changes: the flag is the accumulator's last member,
  // and a worker's accumulator may share a cache line with the next
  // worker's first members, read every row (a store every row made add_values
  // up to twice as slow in the bench's model comparison, 2 workers).
  if (last_row_beyond_ != beyond) last_row_beyond_ = beyond;
  if (beyond && !judged) {
    judged = true;
    totals = judged_pass();
  }
  tally_.entries += static_cast<std::int64_t>(n) * copies;
  tally_.largest_value_bits = std::max(tally_.largest_value_bits, totals.largest_value_bits);
  // The row's sum in a fixed order, then an order-free sum over rows: the
  // RMS does not depend on which worker took which row. (Once per copy, in
  // one call: the order-free sum adds exactly.)
  tally_.sum_squares.add(totals.squares, copies);
  if (allowance_ == nullptr) tally_.beyond_budget += totals.above[budget_count] * copies;
  tally_.beyond_budget += judgement.beyond * copies;
  tally_.beyond_bound += judgement.beyond_bound * copies;
  // Bin k of the histogram counts the entries in (edge k-1, edge k]: the
  // entries above edge k-1 less those above edge k. An uncommon entry has
  // ulps 0 in the kernel and is not in `common`. No entry is above an edge at
  // or past the row's maximum: those counts are 0 without a pass over the row
  // (a table within 1 ULP needs 6 of the 14 edges: the first four are
  // counted in the kernel's pass, the others four at a time; a judged pass
  // counted them all).
  std::size_t passed = 0;  // the edges below row_max (a judged pass counted them all: not needed)
  while (histogram && !judged && passed < edges_.size() && row_max > edges_[passed]) ++passed;
  // The entries' errors are wanted for the edges past the first four (unless
  // judged), a new worst entry of any kind, the allowance's worst and the
  // uncommon entries: the same doubles again, stored this time.
  const bool any_common = totals.common > 0;
  const bool new_worst = any_common && (!tally_.worst || row_max >= tally_.worst->error.ulps);
  const bool new_worst_abs = any_common && (!tally_.worst_abs || totals.max_abs_error >= tally_.worst_abs->abs_error);
  const bool new_nearest =
      any_common && (!tally_.nearest_zero || totals.min_exact_magnitude <= std::fabs(tally_.nearest_zero->exact.hi));
  const bool new_worst_ratio = judgement.may_reach_floor;
  const bool all_common = totals.common == static_cast<std::int64_t>(n);
  if ((!judged && passed > 4) || new_worst || new_worst_abs || new_nearest || new_worst_ratio || !all_common) {
    ulps_.resize(n);
    abs_.resize(n);
    common_.resize(n);
    const RowErrors store{ulps_.data(), abs_.data(), common_.data()};
    row_ulp_errors(values, exact, format, thresholds_, &store);
  }
  std::int64_t above_previous = totals.common;
  for (std::size_t k = 0; histogram && k < edges_.size(); k += 4) {
    std::int64_t above[4] = {};
    if (judged) {
      // The judged pass's thresholds are the edges but the last, infinity,
      // which no entry is above.
      for (std::size_t j = 0; j < 4 && k + j + 1 < edges_.size(); ++j) above[j] = totals.above[k + j];
    } else if (k == 0) {
      std::copy(totals.above.begin(), totals.above.begin() + 4, above);
    } else if (k < passed) {
      count_above_four(ulps_.data(), n, edges_, k, passed, above);
    }
    for (std::size_t j = 0; j < 4 && k + j < edges_.size(); ++j) {
      tally_.histogram[k + j] += (above_previous - above[j]) * copies;
      above_previous = above[j];
    }
  }
  const auto entry_at = [&](std::size_t e) {
    return ComparedEntry{{table, row, column_of(e)},
                         static_cast<double>(values[e]),
                         exact_at(exact, e),
                         {Mismatch::none, ulps_[e]},
                         abs_[e]};
  };
  // Each kept entry is the row's first with the row's extreme figure: the
  // earliest key among the row's candidates.
  const auto first_with = [&](const std::vector<double>& figure, double target) {
    for (std::size_t e = 0; e < n; ++e) {
      if (common_[e] != 0 && figure[e] == target) return e;
    }
    return n;
  };
  if (new_worst) keep(tally_.worst, entry_at(first_with(ulps_, row_max)), ulps_of);
  if (new_worst_abs) keep(tally_.worst_abs, entry_at(first_with(abs_, totals.max_abs_error)), abs_error_of);
  if (new_nearest) {
    for (std::size_t e = 0; e < n; ++e) {
      if (common_[e] != 0 && std::fabs(exact_at(exact, e).hi) == totals.min_exact_magnitude) {
        keep(tally_.nearest_zero, entry_at(e), closeness_to_zero);
        break;
      }
    }
  }
  if (new_worst_ratio) keep_worst_ratio(n, entry_at);
  if (all_common) return;
  for (std::size_t e = 0; e < n; ++e) {
    if (common_[e] != 0) continue;
    // Each copy counts; the first copy's key is kept, as its smallest.
    const ComparedEntry entry =
        compare_entry({table, row, column_of(e)}, static_cast<double>(values[e]), exact_at(exact, e), format);
    for (std::int64_t k = 0; k < copies; ++k) add_scalar(entry);
  }
}

template <typename Value, typename Exact>
void AccumulatorRows::add(Accumulator& accumulator, std::int64_t row, std::span<const Value> values,
                          std::span<const Exact> exact, std::int64_t table, const RowColumns& columns) {
  accumulator.add_values(values, exact, row, table, columns);
}

template void AccumulatorRows::add<double, DoubleDouble>(Accumulator&, std::int64_t, std::span<const double>,
                                                         std::span<const DoubleDouble>, std::int64_t,
                                                         const RowColumns&);
template void AccumulatorRows::add<float, DoubleDouble>(Accumulator&, std::int64_t, std::span<const float>,
                                                        std::span<const DoubleDouble>, std::int64_t, const RowColumns&);
template void AccumulatorRows::add<double, double>(Accumulator&, std::int64_t, std::span<const double>,
                                                   std::span<const double>, std::int64_t, const RowColumns&);
template void AccumulatorRows::add<float, double>(Accumulator&, std::int64_t, std::span<const float>,
                                                  std::span<const double>, std::int64_t, const RowColumns&);

}  // namespace pecheck::accuracy
