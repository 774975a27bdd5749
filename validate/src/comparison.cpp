#include "comparison.hpp"

#include <algorithm>
#include <cmath>

#include "pecheck/accuracy/accumulator.hpp"
#include "pecheck/accuracy/measure.hpp"
#include "pecheck/reference/reference.hpp"

namespace pecheck::validate {

namespace {

constexpr std::int64_t edge_rows = 32;
constexpr std::int64_t block_rows = 8;
constexpr std::int64_t least_rows = 64;

}  // namespace

std::vector<std::int64_t> rows_to_compare(std::int64_t rows, std::int64_t dim, std::int64_t row_offset,
                                          const std::vector<std::int64_t>& priority, const ComparisonPlan& plan) {
  std::vector<std::int64_t> chosen;
  (void)dim;
  if (plan.sample_rows <= 0 || plan.sample_rows >= rows) {
    chosen.resize(static_cast<std::size_t>(rows));
    for (std::int64_t r = 0; r < rows; ++r) chosen[static_cast<std::size_t>(r)] = r;
    return chosen;
  }
  const std::int64_t wanted = std::min(rows, std::max(least_rows, plan.sample_rows));
  const auto add_run = [&](std::int64_t first, std::int64_t count) {
    for (std::int64_t r = std::max<std::int64_t>(first, 0); r < std::min(first + count, rows); ++r) chosen.push_back(r);
  };
  for (std::size_t k = 0; k < priority.size() && static_cast<std::int64_t>(k) < wanted / 4; ++k) chosen.push_back(priority[k]);
  add_run(0, edge_rows);
  add_run(rows - edge_rows, edge_rows);
  for (int k = 1; k < 25; ++k) {  // positions 2^k - 2 .. 2^k + 1: a new binade of the angle
    add_run((std::int64_t{1} << k) - 2 - row_offset, 4);
  }
  std::sort(chosen.begin(), chosen.end());
  chosen.erase(std::unique(chosen.begin(), chosen.end()), chosen.end());
  const auto remaining = std::max<std::int64_t>(wanted - static_cast<std::int64_t>(chosen.size()), 0);
  const std::int64_t blocks = remaining / block_rows;
  for (std::int64_t b = 0; b < blocks; ++b) add_run((b * (rows - block_rows)) / std::max<std::int64_t>(blocks - 1, 1), block_rows);
  std::sort(chosen.begin(), chosen.end());
  chosen.erase(std::unique(chosen.begin(), chosen.end()), chosen.end());
  return chosen;
}

namespace {

constexpr reference::ExactValues compared_exact_values = reference::ExactValues::for_format;

}  // namespace

double comparison_exact_tolerance(FormatId format) { return reference::exact_tolerance(compared_exact_values, format); }

accuracy::Measurement compare_with_reference(const Table& table, const Convention& convention,
                                               std::int64_t row_offset, const std::vector<std::int64_t>& rows,
                                               double budget_ulp, const std::string& budget_source,
                                               const accuracy::Allowance* allowance,
                                               const ComparisonPlan& plan, ComparisonFacts& facts) {
  std::int64_t escalations = 0;
  // One accumulator per worker; the reference never runs more workers for a
  // run of rows than for the whole table.
  const int workers = reference::reference_workers(plan.threads, std::max<std::int64_t>(table.rows, 1));
  std::vector<accuracy::Accumulator> totals(
      static_cast<std::size_t>(workers),
      accuracy::Accumulator(table.format, budget_ulp, allowance, accuracy::SignedZero::mismatch, plan.histogram));
  const TableView view = table.view();
  std::size_t start = 0;
  std::int64_t done = 0;
  while (start < rows.size()) {
    std::size_t end = start + 1;  // one reference pass per run of successive rows
    // At most 2^22 entries a pass, so that progress is reported as it goes;
    // nothing is kept per entry, whatever the pass's size.
    const auto pass_rows = static_cast<std::size_t>(std::max<std::int64_t>(1, (std::int64_t{1} << 22) / std::max<std::int64_t>(table.cols, 1)));
    while (end < rows.size() && rows[end] == rows[end - 1] + 1 && end - start < pass_rows) ++end;
    const auto count = static_cast<std::int64_t>(end - start);
    const std::int64_t first = rows[start];
    const TableRequest request{count, table.cols, first + row_offset};
    // ExactValues::for_format: each exact value within 2^-(p + 20) of
    // itself, relatively (p the format's precision), so each ULP error is
    // right to 2^-20 ULP (|x| < 2^(e+1) and ulp(x) = 2^(e+1-p)), below the
    // 4 significant digits printed for errors up to 1 ULP.
    // RoundedValues::skipped: every figure is measured against the exact
    // values (an error of at most half an ULP is correct rounding), so the
    // oracle's rounding decisions would go unused.
    const reference::ReferenceCounts counts = reference::reference_rows(
        convention, request, table.format, plan.threads, compared_exact_values,
        reference::RoundedValues::skipped,
        [&](int worker, const reference::ReferenceRow& row) {
          accuracy::Accumulator& total = totals[static_cast<std::size_t>(worker)];
          if (row.plain_exact.empty()) {
            total.add_row(view, first + row.row, first + row.row + row_offset, row.exact);
          } else {
            total.add_row(view, first + row.row, first + row.row + row_offset, row.plain_exact);
          }
        });
    escalations += counts.escalations;
    done += count;
    if (plan.progress) plan.progress(done, static_cast<std::int64_t>(rows.size()));
    start = end;
  }
  for (std::size_t w = 1; w < totals.size(); ++w) totals[0].merge(totals[w]);
  facts.escalations = escalations;
  facts.values_in_unit_interval = totals[0].tally().values_in_unit_interval();
  accuracy::Measurement total = totals[0].measurement(convention, budget_source, escalations);
  // Row is the convention's row here, as exact_value takes it.
  accuracy::refine_worst_exact(total, [&](const accuracy::WorstInput& w) {
    return reference::exact_value(convention, table.cols, w.row, w.column);
  });
  // The accumulator names the convention row; report the file's.
  total.worst.row -= row_offset;
  if (total.abs_bound) total.abs_bound->worst.row -= row_offset;
  if (total.nearest_zero) total.nearest_zero->row -= row_offset;
  return total;
}

}  // namespace pecheck::validate
