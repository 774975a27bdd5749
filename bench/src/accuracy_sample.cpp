#include "accuracy_sample.hpp"

#include <algorithm>
#include <random>
#include <stdexcept>
#include <utility>
#include <vector>

#include "pecheck/reference/reference.hpp"
#include "pecheck/ulp.hpp"

namespace pecheck::bench {

AccuracySample sample_float32_accuracy(const Convention& convention, const TableRequest& request,
                                       std::span<const float> values, std::int64_t entries, std::uint64_t seed) {
  if (values.size() != static_cast<std::size_t>(request.rows * request.dim)) {
    throw std::invalid_argument("accuracy sample: the table holds " + std::to_string(values.size()) +
                                " values, expected rows x dim");
  }
  AccuracySample sample;
  if (request.rows == 0 || request.dim == 0) return sample;
  std::vector<std::pair<std::int64_t, std::int64_t>> cells;
  const std::int64_t edge = std::min<std::int64_t>(request.dim, 8);
  for (std::int64_t c = 0; c < edge; ++c) {
    cells.emplace_back(0, c);
    cells.emplace_back(request.rows - 1, c);
  }
  std::mt19937_64 rng(seed);
  std::uniform_int_distribution<std::int64_t> row(0, request.rows - 1);
  std::uniform_int_distribution<std::int64_t> col(0, request.dim - 1);
  while (static_cast<std::int64_t>(cells.size()) < entries) cells.emplace_back(row(rng), col(rng));

  const Format& float32 = format_of(FormatId::float32);
  for (const auto& [r, c] : cells) {
    const DoubleDouble exact = reference::exact_value(convention, request.dim, r + request.row_offset, c);
    const float computed = values[static_cast<std::size_t>(r * request.dim + c)];
    const UlpError error = ulp_error(static_cast<double>(computed), exact, float32);
    sample.max_ulp = std::max(sample.max_ulp, error.ulps);  // a mismatch counts as infinity
    ++sample.entries;
  }
  return sample;
}

}  // namespace pecheck::bench
