// fast_rotate: the exact rotation of a kernel's input, pecheck's own answer
// to "rotate these rows at these positions" (the fast subject's RotaryKernel).
//
// Its error: cos and sin come from fast_rotary_cache in float64, each within
// 2 float64 ULP of A cos(p theta_i) and A sin(p theta_i) (rotary_fast.cpp);
// x_a c - x_b s in double adds two products' and a sum's roundings, 2^-53
// relative each, so the double is within 2^-50 (|x_a| + |x_b|) A of the exact
// component; rounding it once to the format adds the format's half ULP. The
// checks on rotated outputs (properties/rotated_properties.cpp) allow a
// kernel (8u + 2^-21) A |x| per pair, far above this.
#include <algorithm>
#include <map>
#include <string>

#include "pecheck/rotary_cache.hpp"
#include "pecheck/rotary_kernel.hpp"

namespace pecheck {

Table fast_rotate(const RotaryConvention& convention, const TableView& input, std::span<const std::int64_t> positions,
                  FormatId format) {
  const RotaryDerived derived = rotary_derived(convention);
  const std::int64_t width = derived.dims;
  if (input.cols() < width) {
    throw ConventionError("fast_rotate: rows of " + std::to_string(input.cols()) +
                          " values, narrower than the rotary width " + std::to_string(width));
  }
  if (static_cast<std::int64_t>(positions.size()) != input.rows()) {
    throw ConventionError("fast_rotate: " + std::to_string(positions.size()) + " positions for " +
                          std::to_string(input.rows()) + " rows");
  }
  // The cache column holding pair i's cos and sin (the first of its columns).
  std::vector<std::int64_t> column_of(static_cast<std::size_t>(derived.frequencies), -1);
  for (std::int64_t c = rotary_columns(convention) - 1; c >= 0; --c) {
    column_of[static_cast<std::size_t>(rotary_column_frequency(convention, c))] = c;
  }
  // One float64 cache row per distinct position.
  std::map<std::int64_t, RotaryCache> caches;
  for (const std::int64_t p : positions) {
    if (!caches.contains(p)) caches.emplace(p, fast_rotary_cache(convention, {p, 1, FormatId::float64}));
  }
  Table out = make_uninitialized_table(input.rows(), input.cols(), format);
  for (std::int64_t r = 0; r < input.rows(); ++r) {
    const RotaryCache& cache = caches.at(positions[static_cast<std::size_t>(r)]);
    for (std::int64_t c = width; c < input.cols(); ++c) out.set(r, c, input.at(r, c));
    for (std::int64_t i = 0; i < derived.frequencies; ++i) {
      const auto [a, b] = rotary_pair_columns(convention.layout, width, i);
      const std::int64_t k = column_of[static_cast<std::size_t>(i)];
      const double c = cache.cos.at(0, k), s = cache.sin.at(0, k);
      const double xa = input.at(r, a), xb = input.at(r, b);
      out.set(r, a, xa * c - xb * s);
      out.set(r, b, xa * s + xb * c);
    }
  }
  return out;
}

}  // namespace pecheck
