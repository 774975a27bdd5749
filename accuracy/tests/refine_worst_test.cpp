// refine_worst_exact: a comparison's exact values are good to 2^-(p + 20)
// relative, so the worst entry's printed errors would be good to about 13
// digits; after refinement they are measured from the refined exact value,
// digit for digit, and the maximum is the worst entry's error.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <span>
#include <vector>

#include "pecheck/accuracy/accumulator.hpp"
#include "pecheck/accuracy/measure.hpp"
#include "pecheck/ulp.hpp"

namespace pecheck::accuracy {
namespace {

const Format& f32 = format_of(FormatId::float32);

// Values of sin(k / 7) rounded to float32 and moved by up to 40 ULP, with
// exact values (double-double, sin to double precision plus a lo word that
// stands in for the tail) and the same exact values as a cheap tier would
// give them: off by 2^-45 relative, within what a comparison asks for.
struct Entries {
  std::vector<float> values;
  std::vector<DoubleDouble> exact;
  std::vector<DoubleDouble> approximate;
};

Entries entries(int count) {
  Entries e;
  for (int k = 1; k <= count; ++k) {
    const double hi = std::sin(static_cast<double>(k) / 7.0);
    const DoubleDouble exact{hi, std::ldexp(hi, -57)};
    float v = static_cast<float>(hi);
    for (int step = 0; step < k % 41; ++step) v = std::nextafter(v, 2.0f);
    e.values.push_back(v);
    e.exact.push_back(exact);
    e.approximate.push_back({hi * (1.0 + std::ldexp(1.0, -45)), 0.0});
  }
  return e;
}

TEST(RefineWorst, theWorstEntrysErrorsAreMeasuredFromTheRefinedExactValue) {
  const Entries e = entries(512);
  Accumulator accumulator(FormatId::float32, 1.0);
  accumulator.add_row(0, std::span<const float>(e.values), std::span<const DoubleDouble>(e.approximate));
  Measurement m = accumulator.measurement([](std::int64_t row) { return row; }, "test", 0);
  const std::int64_t column = m.worst.column;
  const double value = e.values[static_cast<std::size_t>(column)];
  const DoubleDouble exact = e.exact[static_cast<std::size_t>(column)];
  const double true_ulps = ulp_error(value, exact, f32).ulps;
  // The approximate exact value moved the figure: the test would see a refinement that leaves it.
  ASSERT_NE(m.worst.ulps, true_ulps);
  ASSERT_NE(m.max_ulp, true_ulps);

  refine_worst_exact(m, [&](const WorstInput& w) { return e.exact[static_cast<std::size_t>(w.column)]; });
  EXPECT_EQ(m.worst.exact.hi, exact.hi);
  EXPECT_EQ(m.worst.ulps, true_ulps);
  EXPECT_EQ(m.max_ulp, true_ulps);
  EXPECT_EQ(m.worst.abs_error, absolute_error(value, exact));
  ASSERT_TRUE(m.nearest_zero.has_value());
  const auto zero_column = static_cast<std::size_t>(m.nearest_zero->column);
  EXPECT_EQ(m.nearest_zero->ulps, ulp_error(e.values[zero_column], e.exact[zero_column], f32).ulps);
}

}  // namespace
}  // namespace pecheck::accuracy
