#include "rotary_comparison.hpp"

#include <algorithm>
#include <future>
#include <memory>
#include <span>
#include <vector>

#include "pecheck/accuracy/accumulator.hpp"
#include "pecheck/accuracy/libm_allowance.hpp"
#include "pecheck/accuracy/measure.hpp"
#include "pecheck/parallel_for.hpp"
#include "pecheck/reference/rotary_reference.hpp"
#include "rotary_twin_columns.hpp"

namespace pecheck::validate {

namespace {

// Row r of a table as doubles (exact): float32 read straight from its
// storage, which the compiler vectorises; the other formats through at().
void read_row(const Table& table, std::int64_t r, double* out) {
  const auto cols = static_cast<std::size_t>(table.cols);
  if (table.format == FormatId::float32) {
    const float* row = table.storage<float>().data() + static_cast<std::size_t>(r) * cols;
    for (std::size_t c = 0; c < cols; ++c) out[c] = row[c];
    return;
  }
  for (std::size_t c = 0; c < cols; ++c) out[c] = table.at(r, static_cast<std::int64_t>(c));
}

// Asks memory for row r of a float32 table, a cache line at a time. A
// worker's rows are consecutive, but between two of them it runs through the
// reference's and the accumulators' arrays, and the hardware's prefetcher
// did not bring the next row in time: the twin test, each row's first touch
// of the cache, spent most of its samples on its first load (perf, the
// bench's cache: the test 4.0% of the command's CPU samples, 1.2% with the
// rows asked for four ahead).
void prefetch_row(const Table& table, std::int64_t r) {
  const auto* row = reinterpret_cast<const char*>(table.storage<float>().data() +
                                                  static_cast<std::size_t>(r) * static_cast<std::size_t>(table.cols));
  const std::size_t bytes = static_cast<std::size_t>(table.cols) * sizeof(float);
  for (std::size_t offset = 0; offset < bytes; offset += 64) __builtin_prefetch(row + offset);
}
constexpr std::int64_t rows_ahead = 4;

}  // namespace

std::vector<Comparison> compare_rotary_cache(const Table& cos, const Table& sin, FormatId format,
                                             const RotaryConvention& convention, std::int64_t first_position,
                                             std::span<const std::optional<ComputationModel>> targets,
                                             double budget_ulp, const std::string& budget_source, int threads,
                                             accuracy::HistogramCounting histogram) {
  // Against a model, an entry beyond the ULP budget may still be within what
  // a framework's own libm gives (accuracy/libm_allowance.hpp).
  std::vector<std::optional<accuracy::LibmAllowance>> allowances(targets.size());
  // One accumulator per worker of the reference and target, merged at the
  // end (the accumulators' totals do not depend on the order, accumulator.hpp).
  const int workers = worker_count(threads, cos.rows);
  std::vector<std::vector<accuracy::Accumulator>> accumulators(targets.size());
  // Each frequency's two columns measured once where they are equal.
  const TwinColumns twins(convention, cos.cols);
  // What each allowance derives from the twins' columns, once for every row.
  std::vector<std::unique_ptr<const accuracy::ColumnsPlan>> plans(targets.size());
  const auto prepare = [&] {
    for (std::size_t t = 0; t < targets.size(); ++t) {
      if (!targets[t]) continue;
      allowances[t].emplace(convention, *targets[t], first_position, cos.cols);
      if (twins.apply()) plans[t] = allowances[t]->plan_columns(twins.row_columns().column);
    }
    for (std::size_t t = 0; t < targets.size(); ++t) {
      const accuracy::Allowance* allowance = allowances[t] ? &*allowances[t] : nullptr;
      for (int w = 0; w < workers; ++w) {
        accumulators[t].emplace_back(format, budget_ulp, allowance, accuracy::SignedZero::equal, histogram);
      }
    }
  };
  // Built beside the reference's row plans, each worker waiting for them at
  // its first row: both are MPFR work (the model's inv_freq for the
  // allowance, the frequencies and anchors for the plans), which ran one
  // after the other while the second core waited (the bench's cache: 0.7 to
  // 0.9 ms and 1.1 to 1.7 ms; 1.3 ms for both side by side). With one worker,
  // on its thread at its first row.
  const std::shared_future<void> prepared =
      std::async(workers > 1 ? std::launch::async : std::launch::deferred, prepare).share();
  // A cache row is the cos row then the sin row: sin's column c is cos.cols + c.
  // Each worker reads a row of the cache once, for every target.
  const auto cols = static_cast<std::size_t>(cos.cols);
  const bool floats = cos.format == FormatId::float32 && sin.format == FormatId::float32;
  std::vector<std::size_t> frequency_of_column(static_cast<std::size_t>(cos.cols));
  for (std::int64_t c = 0; c < cos.cols; ++c) {
    frequency_of_column[static_cast<std::size_t>(c)] = static_cast<std::size_t>(rotary_column_frequency(convention, c));
  }
  struct RowBuffers {
    std::vector<float> floats;   // a float32 row, cos's then sin's
    std::vector<double> values;  // a row as doubles
    std::vector<DoubleDouble> exact;
    std::vector<double> plain;
    bool values_read = false;
    bool prepared = false;  // the allowances and accumulators, waited for at the worker's first row
    // A row's distinct entries (TwinColumns): values and exact values.
    std::vector<float> distinct_floats;
    std::vector<double> distinct_values, distinct_plain;
    std::vector<DoubleDouble> distinct_exact;
  };
  std::vector<RowBuffers> buffers(static_cast<std::size_t>(workers));
  for (RowBuffers& b : buffers) {
    b.floats.resize(floats ? 2 * cols : 0);
    b.values.resize(2 * cols);
    b.exact.resize(2 * cols);
    b.plain.resize(2 * cols);
    b.distinct_floats.resize(floats ? twins.entries() : 0);
    b.distinct_values.resize(twins.entries());
    b.distinct_plain.resize(twins.entries());
    b.distinct_exact.resize(twins.entries());
  }
  // Row r as doubles, cos's then sin's, read once for whatever needs it
  // (the twin test and the targets; b.values_read is cleared for each row).
  const auto row_values = [&](RowBuffers& b, std::int64_t r) -> std::span<const double> {
    if (!b.values_read) {
      read_row(cos, r, b.values.data());
      read_row(sin, r, b.values.data() + cols);
      b.values_read = true;
    }
    return b.values;
  };
  // A row whose twin columns are equal, by its distinct entries, for every
  // target; false (nothing added) when a copy differs.
  const auto add_distinct = [&](std::size_t w, std::int64_t r, std::span<const reference::RotaryReferenceRow> rows) {
    RowBuffers& b = buffers[w];
    const auto offset = static_cast<std::size_t>(r) * cols;
    if (floats) {
      if (!twins.distinct(cos.storage<float>().data() + offset, sin.storage<float>().data() + offset,
                          b.distinct_floats.data())) {
        return false;
      }
    } else {
      const double* values = row_values(b, r).data();
      if (!twins.distinct(values, values + cols, b.distinct_values.data())) return false;
    }
    accuracy::RowColumns columns = twins.row_columns();
    const auto add = [&](accuracy::Accumulator& accumulator, const auto& exact) {
      if (floats) {
        accumulator.add_row(r, std::span<const float>(b.distinct_floats), exact, 0, columns);
      } else {
        accumulator.add_row(r, std::span<const double>(b.distinct_values), exact, 0, columns);
      }
    };
    for (std::size_t t = 0; t < rows.size(); ++t) {
      const reference::RotaryReferenceRow& row = rows[t];
      columns.plan = plans[t].get();
      if (!row.by_frequency.empty()) {
        add(accumulators[t][w], twins.distinct_exact(row.by_frequency, b.distinct_plain.data()));
        continue;
      }
      twins.distinct_exact(row.cos, row.sin, b.distinct_exact.data());
      // Exact values that are plain doubles go as such (as below).
      const bool all_plain = std::all_of(b.distinct_exact.begin(), b.distinct_exact.end(),
                                         [](const DoubleDouble& x) { return x.lo == 0.0; });
      if (all_plain) {
        for (std::size_t e = 0; e < b.distinct_exact.size(); ++e) b.distinct_plain[e] = b.distinct_exact[e].hi;
        add(accumulators[t][w], std::span<const double>(b.distinct_plain));
      } else {
        add(accumulators[t][w], std::span<const DoubleDouble>(b.distinct_exact));
      }
    }
    return true;
  };
  // Exact values to the format's accuracy (2^-(precision + 20) relative),
  // as the additive comparison asks for: far below any ULP error printed.
  const RotaryCacheRequest request{first_position, cos.rows, format};
  reference::rotary_reference_rows(convention, request, targets, workers, reference::ExactValues::for_format,
                                   [&](int worker, std::span<const reference::RotaryReferenceRow> rows) {
                                     const auto w = static_cast<std::size_t>(worker);
                                     RowBuffers& b = buffers[w];
                                     const std::int64_t r = rows.front().row;
                                     if (floats && r + rows_ahead < cos.rows) {
                                       prefetch_row(cos, r + rows_ahead);
                                       prefetch_row(sin, r + rows_ahead);
                                     }
                                     b.values_read = false;
                                     if (!b.prepared) {
                                       prepared.get();
                                       b.prepared = true;
                                     }
                                     if (twins.apply() && add_distinct(w, r, rows)) return;
                                     if (floats) {
                                       const std::size_t offset = static_cast<std::size_t>(r) * cols;
                                       std::copy_n(cos.storage<float>().data() + offset, cols, b.floats.data());
                                       std::copy_n(sin.storage<float>().data() + offset, cols, b.floats.data() + cols);
                                     }
                                     const auto values = [&] { return row_values(b, r); };
                                     for (std::size_t t = 0; t < rows.size(); ++t) {
                                       const reference::RotaryReferenceRow& row = rows[t];
                                       accuracy::Accumulator& accumulator = accumulators[t][w];
                                       // A row of plain exact values (nearly every row of a float32 cache),
                                       // spread from its frequencies to the columns: float32 rows go to the
                                       // accumulator in their own type, cos's then sin's, as the kernel reads
                                       // them (a float converts exactly).
                                       if (!row.by_frequency.empty()) {
                                         const std::size_t n = row.by_frequency.size() / 2;
                                         for (std::size_t c = 0; c < cols; ++c) {
                                           b.plain[c] = row.by_frequency[frequency_of_column[c]];
                                           b.plain[cols + c] = row.by_frequency[n + frequency_of_column[c]];
                                         }
                                         if (floats) {
                                           accumulator.add_row(r, std::span<const float>(b.floats),
                                                               std::span<const double>(b.plain));
                                         } else {
                                           accumulator.add_row(r, values(), std::span<const double>(b.plain));
                                         }
                                         continue;
                                       }
                                       bool all_plain = true;
                                       for (std::size_t c = 0; c < cols; ++c) {
                                         b.plain[c] = row.cos[c].hi;
                                         b.plain[cols + c] = row.sin[c].hi;
                                         all_plain &= (row.cos[c].lo == 0.0) & (row.sin[c].lo == 0.0);
                                       }
                                       // Exact values that are plain doubles (the double tier's) go as such:
                                       // half the bytes for the accumulator to read, the same figures.
                                       if (all_plain) {
                                         accumulator.add_row(r, values(), std::span<const double>(b.plain));
                                         continue;
                                       }
                                       for (std::size_t c = 0; c < cols; ++c) {
                                         b.exact[c] = row.cos[c];
                                         b.exact[cols + c] = row.sin[c];
                                       }
                                       accumulator.add_row(r, values(), std::span<const DoubleDouble>(b.exact));
                                     }
                                   });
  prepared.get();  // when no worker had a row to wait for it
  std::vector<Comparison> comparisons;
  for (std::size_t t = 0; t < targets.size(); ++t) {
    const std::optional<ComputationModel>& model = targets[t];
    Comparison& comparison = comparisons.emplace_back();
    comparison.target = model ? "the computation model " + model->name : "the exact encoding";
    accuracy::Accumulator& accumulate = accumulators[t].front();
    for (std::size_t w = 1; w < accumulators[t].size(); ++w) accumulate.merge(accumulators[t][w]);
    accuracy::Measurement& m = comparison.measurement;
    m = accumulate.measurement([&](std::int64_t row) { return first_position + row; }, budget_source, 0);
    // Column c of a row is cos's column c, or sin's column c - cos.cols.
    accuracy::refine_worst_exact(m, [&](const accuracy::WorstInput& worst) {
      const bool cosine = worst.column < cos.cols;
      const std::int64_t column = cosine ? worst.column : worst.column - cos.cols;
      return reference::rotary_exact_value(convention, worst.position, rotary_column_frequency(convention, column),
                                           cosine, model);
    });
    comparison.beyond_budget = accuracy::failing_entries(m);
    comparison.conforms = m.entries > 0 && comparison.beyond_budget == 0;
  }
  return comparisons;
}

}  // namespace pecheck::validate
