// An accumulator's row (Accumulator::add_row): the ULP kernel's totals, the
// histogram's edges past the kernel's four, the kept entries, the
// allowance's pass over a row's entries beyond the budget. Compiled once per
// instruction-set variant (accumulator_kernels.hpp): the same figures in
// each (no contraction, no fast-math), only the vector width differs.
#include <algorithm>
#include <bit>
#include <cmath>
#include <limits>

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

// The entries of a row beyond the budget against the allowance, in one pass
// over the row's bounds (Allowance::row_bounds) where judge_beyond took them
// one virtual call at a time: the same counts, and the same worst ratio (the
// row's first entry with the largest ratio, then judge_beyond's rule against
// the tally's). A comparison against a computation model has millions.
template <typename Exact, typename EntryAt>
void Accumulator::judge_row_beyond(std::int64_t row, std::size_t n, std::span<const Exact> exact,
                                   const EntryAt& entry_at) {
  exact_hi_.resize(n);
  bounds_.resize(n);
  for (std::size_t e = 0; e < n; ++e) exact_hi_[e] = exact_at(exact, e).hi;
  allowance_->row_bounds(row, exact_hi_, bounds_);
  const double budget = budget_ulp_;
  // Two passes: the counts and the largest ratio in one loop without
  // branches (it vectorises; a comparison against a computation model has
  // entries beyond the budget in most rows), then the first entry with that
  // ratio, the one the single pass's strict comparison kept. A ratio is
  // never NaN and never negative (abs_ is finite for a common entry and
  // bound > 0 divides it; + 0.0 makes a -0 +0), so the largest is the
  // largest bit pattern: an integer maximum, which GCC vectorises where it
  // does not vectorise a double one; an entry not counted gives -1.
  const double* __restrict ulps = ulps_.data();
  const double* __restrict abs_error = abs_.data();
  const double* __restrict bounds = bounds_.data();
  const unsigned char* __restrict common = common_.data();
  const auto ratio_of = [&](std::size_t e) {
    return (bounds[e] > 0.0 ? abs_error[e] / bounds[e] : std::numeric_limits<double>::infinity()) + 0.0;
  };
  std::int64_t beyond = 0, beyond_bound = 0;
  std::int64_t worst_bits = -1;
  for (std::size_t e = 0; e < n; ++e) {
    const bool counted = (common[e] != 0) & (ulps[e] > budget);
    beyond += static_cast<std::int64_t>(counted);
    beyond_bound += static_cast<std::int64_t>(counted & !(abs_error[e] <= bounds[e]));
    const std::int64_t candidate = std::bit_cast<std::int64_t>(ratio_of(e)) | -static_cast<std::int64_t>(!counted);
    worst_bits = candidate > worst_bits ? candidate : worst_bits;
  }
  const double worst_ratio = std::bit_cast<double>(worst_bits);
  std::size_t worst = n;
  // The row's worst is kept only when it is not below the tally's: the
  // search for it is skipped otherwise (the same tally).
  const bool may_keep = !tally_.worst_ratio_entry || !(worst_ratio < tally_.worst_ratio);
  if (beyond > 0 && may_keep) {
    for (std::size_t e = 0; e < n; ++e) {
      if (common[e] != 0 && ulps[e] > budget && ratio_of(e) == worst_ratio) {
        worst = e;
        break;
      }
    }
  }
  tally_.beyond_budget += beyond;
  tally_.beyond_bound += beyond_bound;
  if (worst == n) return;
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
                             std::int64_t table) {
  const Format& format = format_of(format_);
  const std::size_t n = values.size();
  // The row's totals first, without its entries' errors: most rows need
  // nothing more. A row that does (see below) is passed again, storing them.
  // With an allowance, a row with an entry beyond the budget needs its
  // entries' errors (below). Where the last row had one (a comparison
  // against a computation model has many such rows in a row) the storing
  // pass runs at once instead of after the totals' pass: the same totals
  // either way, one pass fewer.
  const bool store_at_once = allowance_ != nullptr && last_row_beyond_;
  if (store_at_once) {
    ulps_.resize(n);
    abs_.resize(n);
    common_.resize(n);
  }
  const RowErrors store_now{ulps_.data(), abs_.data(), common_.data()};
  const RowTotals totals = row_ulp_errors(values, exact, format, thresholds_, store_at_once ? &store_now : nullptr);
  tally_.entries += static_cast<std::int64_t>(n);
  tally_.largest_value_bits = std::max(tally_.largest_value_bits, totals.largest_value_bits);
  // The row's sum in a fixed order, then an order-free sum over rows: the
  // RMS does not depend on which worker took which row.
  tally_.sum_squares.add(totals.squares);
  tally_.beyond_budget += allowance_ == nullptr ? totals.above[4] : 0;
  // Bin k of the histogram counts the entries in (edge k-1, edge k]: the
  // entries above edge k-1 less those above edge k. An uncommon entry has
  // ulps 0 in the kernel and is not in `common`. No entry is above an edge at
  // or past the row's maximum: those counts are 0 without a pass over the row
  // (a table within 1 ULP needs 6 of the 14 edges: the first four are
  // counted in the kernel's pass, the others four at a time).
  const double row_max = totals.max_ulps;
  std::size_t passed = 0;  // the edges below row_max
  while (passed < edges_.size() && row_max > edges_[passed]) ++passed;
  // The entries' errors are wanted for the edges past the first four, a new
  // worst entry of any kind, the allowance's check and the uncommon entries:
  // the same doubles again, stored this time.
  const bool any_common = totals.common > 0;
  const bool new_worst = any_common && (!tally_.worst || row_max >= tally_.worst->error.ulps);
  const bool new_worst_abs =
      any_common && (!tally_.worst_abs || totals.max_abs_error >= tally_.worst_abs->abs_error);
  const bool new_nearest = any_common && (!tally_.nearest_zero ||
                                          totals.min_exact_magnitude <= std::fabs(tally_.nearest_zero->exact.hi));
  const bool beyond = allowance_ != nullptr && row_max > budget_ulp_;
  last_row_beyond_ = beyond;
  const bool all_common = totals.common == static_cast<std::int64_t>(n);
  if (!store_at_once && (passed > 4 || new_worst || new_worst_abs || new_nearest || beyond || !all_common)) {
    ulps_.resize(n);
    abs_.resize(n);
    common_.resize(n);
    const RowErrors store{ulps_.data(), abs_.data(), common_.data()};
    row_ulp_errors(values, exact, format, thresholds_, &store);
  }
  std::int64_t above_previous = totals.common;
  for (std::size_t k = 0; k < edges_.size(); k += 4) {
    std::int64_t above[4] = {};
    if (k == 0) {
      std::copy(totals.above.begin(), totals.above.begin() + 4, above);
    } else if (k < passed) {
      count_above_four(ulps_.data(), n, edges_, k, passed, above);
    }
    for (std::size_t j = 0; j < 4 && k + j < edges_.size(); ++j) {
      tally_.histogram[k + j] += above_previous - above[j];
      above_previous = above[j];
    }
  }
  const auto entry_at = [&](std::size_t e) {
    return ComparedEntry{{table, row, static_cast<std::int64_t>(e)},
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
  if (beyond) judge_row_beyond(row, n, exact, entry_at);
  if (all_common) return;
  for (std::size_t e = 0; e < n; ++e) {
    if (common_[e] != 0) continue;
    add_scalar(compare_entry({table, row, static_cast<std::int64_t>(e)}, static_cast<double>(values[e]),
                             exact_at(exact, e), format));
  }
}

template <typename Value, typename Exact>
void AccumulatorRows::add(Accumulator& accumulator, std::int64_t row, std::span<const Value> values,
                          std::span<const Exact> exact, std::int64_t table) {
  accumulator.add_values(values, exact, row, table);
}

template void AccumulatorRows::add<double, DoubleDouble>(Accumulator&, std::int64_t, std::span<const double>,
                                                         std::span<const DoubleDouble>, std::int64_t);
template void AccumulatorRows::add<float, DoubleDouble>(Accumulator&, std::int64_t, std::span<const float>,
                                                        std::span<const DoubleDouble>, std::int64_t);
template void AccumulatorRows::add<double, double>(Accumulator&, std::int64_t, std::span<const double>,
                                                   std::span<const double>, std::int64_t);
template void AccumulatorRows::add<float, double>(Accumulator&, std::int64_t, std::span<const float>,
                                                  std::span<const double>, std::int64_t);

}  // namespace pecheck::accuracy
