#include "rotary_comparison.hpp"

#include <cmath>
#include <cstdio>

#include "pecheck/reference/rotary_reference.hpp"
#include "pecheck/ulp.hpp"

namespace pecheck::validate {

namespace {

// The reference decides about a million entries a second on two cores; a
// cache past this many entries is compared on spread blocks of rows.
constexpr std::int64_t most_entries = std::int64_t{1} << 21;
constexpr std::int64_t block_rows = 64;

std::string decimal(DoubleDouble x) {
  char buffer[64];
  std::snprintf(buffer, sizeof buffer, "%.21g", x.hi + x.lo);
  return buffer;
}

struct Accumulator {
  properties::Measurement& m;
  FormatId format;
  double budget;
  std::int64_t beyond = 0;
  double squares = 0.0;

  void add(double value, DoubleDouble exact, std::int64_t row, std::int64_t position, std::int64_t column) {
    const UlpError error = ulp_error(value, exact, format_of(format));
    const double abs_error = absolute_error(value, exact);
    ++m.entries;
    m.max_abs_error = std::max(m.max_abs_error, abs_error);
    if (error.mismatch != Mismatch::none && error.mismatch != Mismatch::signed_zero) {
      ++m.mismatches;
      ++beyond;
      return;
    }
    squares += error.ulps * error.ulps;
    beyond += error.ulps > budget;
    if (m.entries == 1 || error.ulps > m.max_ulp) {
      m.max_ulp = error.ulps;
      m.worst = {row, position, column, value, hex_bits(value, format_of(format)), exact, decimal(exact), abs_error};
    }
  }
};

}  // namespace

RotaryComparison compare_rotary_cache(const Table& cos, const Table& sin, FormatId format,
                                      const RotaryConvention& convention, std::int64_t first_position,
                                      const std::optional<ComputationModel>& model, double budget_ulp,
                                      const std::string& budget_source, int threads) {
  RotaryComparison comparison;
  comparison.target = model ? "the computation model " + model->name : "the exact encoding";
  properties::Measurement& m = comparison.measurement;
  m.format = format;
  m.budget_ulp = budget_ulp;
  m.budget_source = budget_source;
  Accumulator accumulate{m, format, budget_ulp};
  const std::int64_t row_entries = 2 * cos.cols;
  const std::int64_t blocks = (cos.rows + block_rows - 1) / block_rows;
  const std::int64_t blocks_wanted = std::max<std::int64_t>(1, most_entries / (row_entries * block_rows));
  const std::int64_t stride = cos.rows * row_entries <= most_entries ? 1 : (blocks + blocks_wanted - 1) / blocks_wanted;
  for (std::int64_t b = 0; b < blocks; b += stride) {
    const std::int64_t begin = b * block_rows;
    const std::int64_t rows = std::min(block_rows, cos.rows - begin);
    const RotaryCacheRequest request{first_position + begin, rows, format};
    const reference::RotaryReferenceCache exact = reference::rotary_reference_cache(convention, request, model, threads);
    for (std::int64_t r = 0; r < rows; ++r) {
      for (std::int64_t c = 0; c < cos.cols; ++c) {
        const auto k = static_cast<std::size_t>(r * cos.cols + c);
        accumulate.add(cos.at(begin + r, c), exact.exact_cos[k], begin + r, first_position + begin + r, c);
        accumulate.add(sin.at(begin + r, c), exact.exact_sin[k], begin + r, first_position + begin + r, cos.cols + c);
      }
    }
  }
  const std::int64_t measured = m.entries - m.mismatches;
  m.rms_ulp = measured > 0 ? std::sqrt(accumulate.squares / static_cast<double>(measured)) : 0.0;
  comparison.beyond_budget = accumulate.beyond;
  comparison.conforms = m.entries > 0 && accumulate.beyond == 0;
  return comparison;
}

}  // namespace pecheck::validate
