#include "pecheck/accuracy/order_free_sum.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <optional>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <string>
#include <random>
#include <vector>

namespace pecheck::accuracy {
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

// One addend's state, by the definition (frexp's fraction 2^53 in frexp's
// binade), as text(): normal and subnormal, each binade's edges.
std::string one_addend_text(double x) {
  int exponent = 0;
  const auto significand = static_cast<std::uint64_t>(std::ldexp(std::frexp(x, &exponent), 53));
  char hex[32];
  std::snprintf(hex, sizeof hex, "0x%llx", static_cast<unsigned long long>(significand));
  return std::string(hex) + "p" + std::to_string(exponent - 53);
}

TEST(OrderFreeSum, eachAddendGoesToItsBinadeAsFrexpPlacesIt) {
  std::vector<double> values = addends(3);
  for (double x : {0x1p-1074, 0x1.8p-1073, 0x1.ffffffffffffep-1023, 0x1p-1022, 0x1.0000000000001p-1022, 0.5,
                   std::nextafter(1.0, 0.0), 1.0, 0x1.fffffffffffffp1023}) {
    values.push_back(x);
  }
  for (double x : values) {
    if (!(x > 0.0)) continue;
    OrderFreeSum sum;
    sum.add(x);
    EXPECT_EQ(sum.text(), one_addend_text(x)) << std::hexfloat << x;
  }
}

TEST(OrderFreeSum, anAddendTakenNTimesIsNAdditions) {
  for (double x : addends(5)) {
    for (std::int64_t times : {0, 1, 2, 3, 1000}) {
      OrderFreeSum once_each;
      for (std::int64_t k = 0; k < times; ++k) once_each.add(x);
      OrderFreeSum at_once;
      at_once.add(x, times);
      EXPECT_EQ(at_once, once_each) << std::hexfloat << x << " x " << times;
    }
  }
  OrderFreeSum none;
  none.add(2.0, -1);
  EXPECT_EQ(none, OrderFreeSum{});
}

TEST(OrderFreeSum, ignoresWhatIsNotAFiniteNonNegativeNumber) {
  OrderFreeSum sum;
  sum.add(2.0);
  sum.add(-1.0);
  sum.add(NAN);
  sum.add(INFINITY);
  EXPECT_EQ(sum.value(), 2.0);
}

TEST(OrderFreeSum, itsTextIsItsExactStateAndReadsBack) {
  OrderFreeSum sum;
  EXPECT_EQ(sum.text(), "0");
  for (const double v : addends(5)) sum.add(v);
  const std::optional<OrderFreeSum> back = OrderFreeSum::from_text(sum.text());
  ASSERT_TRUE(back.has_value());
  EXPECT_EQ(*back, sum);
  EXPECT_EQ(back->value(), sum.value());
  OrderFreeSum three;
  three.add(1.0);
  three.add(2.0);
  three.add(0.5);  // frexp: 0.5 = 0.5 * 2^0, 1 = 0.5 * 2^1, 2 = 0.5 * 2^2; each bucket holds 0.5 * 2^53
  EXPECT_EQ(three.text(), "0x10000000000000p-53 + 0x10000000000000p-52 + 0x10000000000000p-51");
  EXPECT_EQ(OrderFreeSum::from_text(three.text()), three);
}

TEST(OrderFreeSum, refusesTextThatIsNotOneOfItsStates) {
  for (const char* bad : {"", "1", "0x0p-53", "0x01p-53", "0x1p-52 + 0x1p-53", "0x1p-53 + 0x1p-53", "0x1p-53 +",
                          "0x1p-53+0x1p-52", "0x1g-53", "0x1p", "0x1p-99999", "0x100000000000000000000000000000000p-53"}) {
    EXPECT_FALSE(OrderFreeSum::from_text(bad).has_value()) << bad;
  }
}

}  // namespace
}  // namespace pecheck::accuracy
