#include "accuracy_sample.hpp"

#include <algorithm>
#include <random>
#include <stdexcept>
#include <utility>
#include <vector>

#include "pecheck/reference/reference.hpp"
#include "pecheck/reference/rotary_reference.hpp"
#include "pecheck/ulp.hpp"

namespace pecheck::bench {

namespace {

// The first and last rows' first (up to 8) columns, where a position error
// shows first, then cells drawn uniformly from `seed` up to `entries`.
std::vector<std::pair<std::int64_t, std::int64_t>> sampled_cells(std::int64_t rows, std::int64_t cols,
                                                                 std::int64_t entries, std::uint64_t seed) {
  std::vector<std::pair<std::int64_t, std::int64_t>> cells;
  const std::int64_t edge = std::min<std::int64_t>(cols, 8);
  for (std::int64_t c = 0; c < edge; ++c) {
    cells.emplace_back(0, c);
    cells.emplace_back(rows - 1, c);
  }
  std::mt19937_64 rng(seed);
  std::uniform_int_distribution<std::int64_t> row(0, rows - 1);
  std::uniform_int_distribution<std::int64_t> col(0, cols - 1);
  while (static_cast<std::int64_t>(cells.size()) < entries) cells.emplace_back(row(rng), col(rng));
  return cells;
}

}  // namespace

AccuracySample sample_float32_accuracy(const Convention& convention, const TableRequest& request,
                                       std::span<const float> values, std::int64_t entries, std::uint64_t seed) {
  if (values.size() != static_cast<std::size_t>(request.rows * request.dim)) {
    throw std::invalid_argument("accuracy sample: the table holds " + std::to_string(values.size()) +
                                " values, expected rows x dim");
  }
  AccuracySample sample;
  if (request.rows == 0 || request.dim == 0) return sample;
  const Format& float32 = format_of(FormatId::float32);
  for (const auto& [r, c] : sampled_cells(request.rows, request.dim, entries, seed)) {
    const DoubleDouble exact = reference::exact_value(convention, request.dim, r + request.row_offset, c);
    const float computed = values[static_cast<std::size_t>(r * request.dim + c)];
    const UlpError error = ulp_error(static_cast<double>(computed), exact, float32);
    sample.max_ulp = std::max(sample.max_ulp, error.ulps);  // a mismatch counts as infinity
    ++sample.entries;
  }
  return sample;
}

AccuracySample sample_rotary_float32_accuracy(const RotaryConvention& convention, const RotaryCacheRequest& request,
                                              const RotaryCache& cache, std::int64_t entries, std::uint64_t seed) {
  const std::int64_t cols = rotary_columns(convention);
  for (const Table* table : {&cache.cos, &cache.sin}) {
    if (table->rows != request.rows || table->cols != cols || table->format != FormatId::float32) {
      throw std::invalid_argument("rotary accuracy sample: expected float32 tables of " + std::to_string(request.rows) +
                                  " x " + std::to_string(cols) + ", got " + std::to_string(table->rows) + " x " +
                                  std::to_string(table->cols));
    }
  }
  AccuracySample sample;
  if (request.rows == 0 || cols == 0) return sample;
  const Format& float32 = format_of(FormatId::float32);
  for (const auto& [r, c] : sampled_cells(request.rows, cols, entries, seed)) {
    const std::int64_t position = request.first_position + r;
    const std::int64_t frequency = rotary_column_frequency(convention, c);
    for (const bool cosine : {true, false}) {
      const DoubleDouble exact = reference::rotary_exact_value(convention, position, frequency, cosine, std::nullopt);
      const double computed = (cosine ? cache.cos : cache.sin).at(r, c);
      sample.max_ulp = std::max(sample.max_ulp, ulp_error(computed, exact, float32).ulps);
      ++sample.entries;
    }
  }
  return sample;
}

}  // namespace pecheck::bench
