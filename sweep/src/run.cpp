#include "pecheck/parallel_for.hpp"
#include "pecheck/sweep/run.hpp"

#include <algorithm>
#include <exception>
#include <span>
#include <vector>

#include "pecheck/accuracy/accumulator.hpp"
#include "pecheck/convention.hpp"
#include "pecheck/fast_encoding.hpp"
#include "pecheck/reference/reference.hpp"

namespace pecheck::sweep {

namespace {

// About 2^20 entries per block: 32 MiB of values and exact values, and about
// a second of the MPFR reference on two cores, so progress comes often.
constexpr std::int64_t entries_per_block = std::int64_t{1} << 20;

// The statistics of rows [begin, end) of a block, keyed by the width.
SweepStatistics compare_rows(const SweepWork& work, const TableRequest& request, const TableView& values,
                             const std::vector<DoubleDouble>& exact, std::int64_t begin, std::int64_t end) {
  accuracy::Accumulator accumulator(work.format, work.budget_ulp);
  const auto dim = static_cast<std::size_t>(request.dim);
  const std::span<const DoubleDouble> all(exact);
  for (std::int64_t r = begin; r < end; ++r) {
    accumulator.add_row(values, r, request.row_offset + r, all.subspan(static_cast<std::size_t>(r) * dim, dim),
                        request.dim);
  }
  return SweepStatistics{accumulator.tally(), 0};
}

// The statistics of one block of rows at one width. The comparison costs
// about a tenth of a microsecond per entry, as much as a fast reference: it
// runs on every thread too, each on its own rows, and since statistics merge
// exactly the result is the same for any thread count.
SweepStatistics sweep_block(const SweepWork& work, const Convention& convention, const TableRequest& request,
                            int threads) {
  const reference::ReferenceTable reference = reference::reference_table(convention, request, work.format, threads,
                                                                                 reference::ExactValues::for_format);
  // The reference as a subject is its own rounded table: no second evaluation.
  const Table computed = work.subject == "reference" ? Table{} : fast_table(convention, request, work.format);
  const TableView values = work.subject == "reference" ? reference.rounded.view() : computed.view();
  const auto workers = static_cast<std::int64_t>(worker_count(threads, request.rows));
  std::vector<SweepStatistics> parts(static_cast<std::size_t>(workers));
  parallel_for(static_cast<int>(workers), [&](int w) {
    parts[static_cast<std::size_t>(w)] = compare_rows(work, request, values, reference.exact,
                                                      w * request.rows / workers, (w + 1) * request.rows / workers);
  });
  SweepStatistics statistics;
  statistics.escalations = reference.escalations;
  for (const SweepStatistics& part : parts) merge_into(statistics, part);
  return statistics;
}

}  // namespace

SweepStatistics run_sweep(const SweepWork& work, const InclusiveRange& rows, int threads,
                          const SweepProgress& progress) {
  const std::optional<Convention> convention = find_preset(work.convention);
  if (!convention) throw SweepUsageError("unknown convention '" + work.convention + "'");
  const std::vector<std::int64_t> widths = work.dims.widths();
  const std::int64_t block_rows = std::max<std::int64_t>(1, entries_per_block / std::max<std::int64_t>(1, work.dims.last));
  const std::int64_t total = entry_count(work, rows);
  SweepStatistics statistics;
  for (std::int64_t first = rows.first; first <= rows.last; first += block_rows) {
    const std::int64_t count = std::min(block_rows, rows.last - first + 1);
    for (std::int64_t dim : widths) {
      merge_into(statistics, sweep_block(work, *convention, TableRequest{count, dim, first}, threads));
      if (progress) progress(statistics.tally.entries, total);
    }
  }
  return statistics;
}

}  // namespace pecheck::sweep
