#include "pecheck/properties/order_free_sum.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <random>
#include <vector>

namespace pecheck::properties {
namespace {

// Squares of errors spanning many binades, as a faulty table's are (0.3 ULP
// to 10^10 ULP), plus subnormals and exact powers of two.
std::vector<double> addends(unsigned seed) {
  std::mt19937_64 generator(seed);
  std::uniform_real_distribution<double> log10(-1.0, 20.0);
  std::vector<double> out;
  for (int k = 0; k < 5000; ++k) out.push_back(std::pow(10.0, log10(generator)));
  out.push_back(0x1p-1074);
  out.push_back(0x1p-1030);
  out.push_back(1.0);
  out.push_back(0.0);
  return out;
}

TEST(OrderFreeSum, everyOrderAndSplitGivesTheSameBits) {
  std::vector<double> values = addends(7);
  OrderFreeSum first;
  for (const double v : values) first.add(v);
  std::mt19937_64 generator(11);
  for (int trial = 0; trial < 20; ++trial) {
    std::shuffle(values.begin(), values.end(), generator);
    // Split across two "workers" at a random point, merged either way round.
    const auto cut = static_cast<std::ptrdiff_t>(generator() % values.size());
    OrderFreeSum a;
    OrderFreeSum b;
    for (auto it = values.begin(); it != values.begin() + cut; ++it) a.add(*it);
    for (auto it = values.begin() + cut; it != values.end(); ++it) b.add(*it);
    OrderFreeSum ab = a;
    ab.merge(b);
    b.merge(a);
    EXPECT_EQ(ab.value(), first.value());
    EXPECT_EQ(b.value(), first.value());
  }
}

// The value is the exact sum rounded a few times: against a sum of the sorted
// addends in long double (64-bit significand), within 2^-50 relative (each
// bucket rounded once to 53 bits, then about 70 nonzero buckets added in
// double, each addition within 2^-53 of the running total).
TEST(OrderFreeSum, isTheSumToNearlyFullPrecision) {
  std::vector<double> values = addends(3);
  std::sort(values.begin(), values.end());
  long double exact = 0.0L;
  OrderFreeSum sum;
  for (const double v : values) {
    exact += v;
    sum.add(v);
  }
  EXPECT_NEAR(sum.value(), static_cast<double>(exact), 0x1p-50 * static_cast<double>(exact));
}

TEST(OrderFreeSum, ignoresWhatIsNotAFiniteNonNegativeNumber) {
  OrderFreeSum sum;
  sum.add(2.0);
  sum.add(-1.0);
  sum.add(NAN);
  sum.add(INFINITY);
  EXPECT_EQ(sum.value(), 2.0);
}

}  // namespace
}  // namespace pecheck::properties
