#include "rotary_comparison.hpp"

#include <algorithm>
#include <cstdio>
#include <span>
#include <vector>

#include "pecheck/accuracy/accumulator.hpp"
#include "pecheck/accuracy/libm_allowance.hpp"
#include "pecheck/number_text.hpp"
#include "pecheck/reference/rotary_reference.hpp"

namespace pecheck::validate {

namespace {

// The reference is asked for blocks of rows: each block starts its worker
// threads once, and its exact values (16 bytes per value) stay a few MiB.
constexpr std::int64_t block_rows = 1024;

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
  // A cache row is the cos row then the sin row: sin's column c is cos.cols + c.
  accuracy::Accumulator accumulate(format, budget_ulp, allowance ? &*allowance : nullptr, accuracy::SignedZero::equal);
  const std::int64_t row_entries = 2 * cos.cols;
  std::vector<double> values(static_cast<std::size_t>(row_entries));
  std::vector<DoubleDouble> exact_row(static_cast<std::size_t>(row_entries));
  const auto cols = static_cast<std::size_t>(cos.cols);
  for (std::int64_t begin = 0; begin < cos.rows; begin += block_rows) {
    const std::int64_t rows = std::min(block_rows, cos.rows - begin);
    const RotaryCacheRequest request{first_position + begin, rows, format};
    // Exact values to the format's accuracy (2^-(precision + 20) relative),
    // as the additive comparison asks for: far below any ULP error printed.
    const reference::RotaryReferenceCache exact = reference::rotary_reference_cache(
        convention, request, model, threads, reference::ExactValues::for_format);
    for (std::int64_t r = 0; r < rows; ++r) {
      for (std::size_t c = 0; c < cols; ++c) {
        const std::size_t k = static_cast<std::size_t>(r) * cols + c;
        values[c] = cos.at(begin + r, static_cast<std::int64_t>(c));
        values[cols + c] = sin.at(begin + r, static_cast<std::int64_t>(c));
        exact_row[c] = exact.exact_cos[k];
        exact_row[cols + c] = exact.exact_sin[k];
      }
      accumulate.add_row(begin + r, std::span<const double>(values), std::span<const DoubleDouble>(exact_row));
    }
  }
  accuracy::Measurement& m = comparison.measurement;
  m = accumulate.measurement([&](std::int64_t row) { return first_position + row; }, budget_source, 0);
  // The text has always shown the exact value as its double sum to 21 digits.
  if (m.entries > m.mismatches) m.worst.exact_text = exact_decimal(m.worst.exact);
  comparison.beyond_budget = accuracy::failing_entries(m);
  comparison.conforms = m.entries > 0 && comparison.beyond_budget == 0;
  return comparison;
}

}  // namespace pecheck::validate
