#include "rotary_comparison.hpp"

#include <algorithm>
#include <cstdio>
#include <span>
#include <vector>

#include "pecheck/accuracy/accumulator.hpp"
#include "pecheck/accuracy/libm_allowance.hpp"
#include "pecheck/accuracy/measure.hpp"
#include "pecheck/parallel_for.hpp"
#include "pecheck/reference/rotary_reference.hpp"

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

}  // namespace

Comparison compare_rotary_cache(const Table& cos, const Table& sin, FormatId format,
                                      const RotaryConvention& convention, std::int64_t first_position,
                                      const std::optional<ComputationModel>& model, double budget_ulp,
                                      const std::string& budget_source, int threads) {
  Comparison comparison;
  comparison.target = model ? "the computation model " + model->name : "the exact encoding";
  // Against a model, an entry beyond the ULP budget may still be within what
  // a framework's own libm gives (accuracy/libm_allowance.hpp).
  std::optional<accuracy::LibmAllowance> allowance;
  if (model) allowance.emplace(convention, *model, first_position, cos.cols);
  const auto make_accumulator = [&] {
    return accuracy::Accumulator(format, budget_ulp, allowance ? &*allowance : nullptr, accuracy::SignedZero::equal);
  };
  // One accumulator per worker of the reference, merged at the end (the
  // accumulators' totals do not depend on the order, accumulator.hpp).
  const int workers = worker_count(threads, cos.rows);
  std::vector<accuracy::Accumulator> accumulators;
  for (int w = 0; w < workers; ++w) accumulators.push_back(make_accumulator());
  // A cache row is the cos row then the sin row: sin's column c is cos.cols + c.
  const auto cols = static_cast<std::size_t>(cos.cols);
  std::vector<std::vector<double>> values(static_cast<std::size_t>(workers), std::vector<double>(2 * cols));
  std::vector<std::vector<DoubleDouble>> exact_rows(static_cast<std::size_t>(workers),
                                                    std::vector<DoubleDouble>(2 * cols));
  const bool floats = cos.format == FormatId::float32 && sin.format == FormatId::float32;
  std::vector<std::vector<float>> float_rows(static_cast<std::size_t>(workers), std::vector<float>(2 * cols));
  std::vector<std::vector<double>> plain_rows(static_cast<std::size_t>(workers), std::vector<double>(2 * cols));
  // Exact values to the format's accuracy (2^-(precision + 20) relative),
  // as the additive comparison asks for: far below any ULP error printed.
  const RotaryCacheRequest request{first_position, cos.rows, format};
  reference::rotary_reference_rows(
      convention, request, model, workers, reference::ExactValues::for_format,
      [&](int worker, const reference::RotaryReferenceRow& row) {
        const auto w = static_cast<std::size_t>(worker);
        // A row of plain exact values (nearly every row of a float32 cache):
        // float32 rows go to the accumulator in their own type, cos's then
        // sin's, as the kernel reads them (a float converts exactly).
        if (!row.plain.empty()) {
          if (floats) {
            float* f = float_rows[w].data();
            const std::size_t offset = static_cast<std::size_t>(row.row) * cols;
            std::copy_n(cos.storage<float>().data() + offset, cols, f);
            std::copy_n(sin.storage<float>().data() + offset, cols, f + cols);
            accumulators[w].add_row(row.row, std::span<const float>(float_rows[w]), row.plain);
          } else {
            read_row(cos, row.row, values[w].data());
            read_row(sin, row.row, values[w].data() + cols);
            accumulators[w].add_row(row.row, std::span<const double>(values[w]), row.plain);
          }
          return;
        }
        std::vector<double>& v = values[w];
        std::vector<DoubleDouble>& e = exact_rows[w];
        std::vector<double>& plain = plain_rows[w];
        read_row(cos, row.row, v.data());
        read_row(sin, row.row, v.data() + cols);
        bool all_plain = true;
        for (std::size_t c = 0; c < cols; ++c) {
          plain[c] = row.cos[c].hi;
          plain[cols + c] = row.sin[c].hi;
          all_plain &= (row.cos[c].lo == 0.0) & (row.sin[c].lo == 0.0);
        }
        // Exact values that are plain doubles (the double tier's) go as such:
        // half the bytes for the accumulator to read, the same figures.
        if (all_plain) {
          accumulators[w].add_row(row.row, std::span<const double>(v), std::span<const double>(plain));
          return;
        }
        for (std::size_t c = 0; c < cols; ++c) {
          e[c] = row.cos[c];
          e[cols + c] = row.sin[c];
        }
        accumulators[w].add_row(row.row, std::span<const double>(v), std::span<const DoubleDouble>(e));
      });
  accuracy::Accumulator& accumulate = accumulators.front();
  for (std::size_t w = 1; w < accumulators.size(); ++w) accumulate.merge(accumulators[w]);
  accuracy::Measurement& m = comparison.measurement;
  m = accumulate.measurement([&](std::int64_t row) { return first_position + row; }, budget_source, 0);
  // Column c of a row is cos's column c, or sin's column c - cos.cols.
  accuracy::refine_worst_exact(m, [&](const accuracy::WorstInput& w) {
    const bool cosine = w.column < cos.cols;
    const std::int64_t column = cosine ? w.column : w.column - cos.cols;
    return reference::rotary_exact_value(convention, w.position, rotary_column_frequency(convention, column), cosine,
                                         model);
  });
  comparison.beyond_budget = accuracy::failing_entries(m);
  comparison.conforms = m.entries > 0 && comparison.beyond_budget == 0;
  return comparison;
}

}  // namespace pecheck::validate
