// The straightforward comparison: the reference table of each run of rows
// with its exact values stored, then measure_accuracy over it. Kept as the
// test oracle of compare_with_reference (the streamed comparison), which must
// print the same figures.
#include "comparison.hpp"

#include <algorithm>

#include "pecheck/accuracy/measure.hpp"
#include "pecheck/reference/reference.hpp"

namespace pecheck::validate {

accuracy::Measurement compare_through_tables(const Table& table, const Convention& convention,
                                               std::int64_t row_offset, const std::vector<std::int64_t>& rows,
                                               double budget_ulp, const std::string& budget_source,
                                               const accuracy::Allowance* allowance,
                                               const ComparisonPlan& plan, std::int64_t& escalations) {
  escalations = 0;
  accuracy::Measurement total;
  total.format = table.format;
  total.budget_ulp = budget_ulp;
  total.budget_source = budget_source;
  std::size_t start = 0;
  std::int64_t done = 0;
  while (start < rows.size()) {
    std::size_t end = start + 1;  // one reference call per run of successive rows
    // At most 2^20 entries a call: the reference's block (the rounded values
    // and a 16-byte exact value per entry, about 20 MiB) is the fixed working
    // set beside the file's table, whatever the table's size.
    const auto block_rows = static_cast<std::size_t>(std::max<std::int64_t>(1, (std::int64_t{1} << 20) / std::max<std::int64_t>(table.cols, 1)));
    while (end < rows.size() && rows[end] == rows[end - 1] + 1 && end - start < block_rows) ++end;
    const auto count = static_cast<std::int64_t>(end - start);
    const TableRequest request{count, table.cols, rows[start] + row_offset};
    const reference::ReferenceTable exact = reference::reference_table(convention, request, table.format, plan.threads,
                                                                                  reference::ExactValues::for_format);
    escalations += exact.escalations;
    const TableView part = table.view().row_block(rows[start], count);
    accuracy::Measurement measured =
        accuracy::measure_accuracy(part, exact.exact, convention, request, budget_ulp, budget_source, allowance);
    measured.reference_escalations = exact.escalations;
    accuracy::merge_measurement(total, measured);
    done += count;
    if (plan.progress) plan.progress(done, static_cast<std::int64_t>(rows.size()));
    start = end;
  }
  accuracy::refine_worst_exact(total, [&](const accuracy::WorstInput& w) {
    return reference::exact_value(convention, table.cols, w.row, w.column);
  });
  // measure_accuracy names the convention row; report the file's.
  total.worst.row -= row_offset;
  if (total.abs_bound) total.abs_bound->worst.row -= row_offset;
  return total;
}

}  // namespace pecheck::validate
