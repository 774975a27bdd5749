// The exact sum of squares: its value for known terms, and the same integer
// whatever the order and grouping of the terms.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <random>
#include <vector>

#include "pecheck/sweep/square_sum.hpp"

namespace pecheck::sweep {
namespace {

ExactSquareSum sum_of_squares(const std::vector<double>& terms) {
  ExactSquareSum sum;
  for (double x : terms) sum.add_square(x);
  return sum;
}

// Magnitudes from subnormal to 2^300, signs mixed, zeros included: the
// squares span more than 64 bits, so carries cross limbs.
std::vector<double> mixed_terms(std::uint64_t seed, int count) {
  std::mt19937_64 random(seed);
  std::uniform_real_distribution<double> unit(-1.0, 1.0);
  std::uniform_int_distribution<int> exponent(-1074, 300);
  std::vector<double> terms;
  for (int k = 0; k < count; ++k) {
    const int kind = k % 5;
    if (kind == 0) terms.push_back(unit(random));                       // a typical ULP error
    if (kind == 1) terms.push_back(std::ldexp(unit(random), exponent(random)));
    if (kind == 2) terms.push_back(0.5 + std::ldexp(1.0, -20));          // the fast path's float32 bound
    if (kind == 3) terms.push_back(k % 2 == 0 ? 0.0 : -0.0);
    if (kind == 4) terms.push_back(std::ldexp(1.0, 40) * unit(random));  // 2^80 squares: carries
  }
  return terms;
}

TEST(ExactSquareSum, countsMultiplesOfTwoToTheMinus64) {
  EXPECT_EQ(sum_of_squares({1.0}).hex(), "0x10000000000000000");
  EXPECT_EQ(sum_of_squares({0.5}).hex(), "0x4000000000000000");
  EXPECT_EQ(sum_of_squares({0.5, -0.5, 1.0}).hex(), "0x18000000000000000");
  EXPECT_EQ(sum_of_squares({std::ldexp(1.0, -32)}).hex(), "0x1");  // 2^-64 exactly
  EXPECT_EQ(sum_of_squares({std::ldexp(1.0, -33)}).hex(), "0x0");  // 2^-66 rounds to 0
  EXPECT_EQ(sum_of_squares({std::ldexp(3.0, -34)}).hex(), "0x1");  // 9/16 of 2^-64 rounds up
  EXPECT_EQ(sum_of_squares({0.0, -0.0, 5e-324}).hex(), "0x0");
  EXPECT_EQ(sum_of_squares({std::ldexp(1.0, 32)}).hex(), "0x1" + std::string(32, '0'));  // 2^128 in 2^-64 units
  EXPECT_EQ(sum_of_squares({0.5}).value(), 0.25);
  EXPECT_EQ(sum_of_squares({}).value(), 0.0);
}

TEST(ExactSquareSum, isTheSameIntegerInAnyOrderAndAnyGrouping) {
  const std::vector<double> terms = mixed_terms(20261123, 4000);
  const ExactSquareSum forward = sum_of_squares(terms);
  std::vector<double> reversed(terms.rbegin(), terms.rend());
  EXPECT_EQ(sum_of_squares(reversed), forward);
  std::vector<double> shuffled = terms;
  std::shuffle(shuffled.begin(), shuffled.end(), std::mt19937_64(7));
  EXPECT_EQ(sum_of_squares(shuffled), forward);
  for (std::size_t parts : {2u, 3u, 17u}) {
    ExactSquareSum merged;
    for (std::size_t p = parts; p-- > 0;) {  // the parts added last first
      const std::size_t begin = p * terms.size() / parts;
      const std::size_t end = (p + 1) * terms.size() / parts;
      merged.add(sum_of_squares(std::vector<double>(terms.begin() + static_cast<std::ptrdiff_t>(begin),
                                                    terms.begin() + static_cast<std::ptrdiff_t>(end))));
    }
    EXPECT_EQ(merged, forward) << parts << " parts";
  }
}

TEST(ExactSquareSum, valueIsTheSumOfSquaresToDoublePrecision) {
  std::mt19937_64 random(11);
  std::uniform_real_distribution<double> unit(0.0, 2.0);
  std::vector<double> terms(10000);
  long double expected = 0;
  for (double& x : terms) {
    x = unit(random);
    expected += static_cast<long double>(x) * x;
  }
  // Each term loses at most 2^-65 to the grid, the conversion 2 double ulps.
  EXPECT_NEAR(sum_of_squares(terms).value(), static_cast<double>(expected), 1e-12 * static_cast<double>(expected));
}

TEST(ExactSquareSum, hexRoundTripsAndHasOneSpellingPerInteger) {
  const ExactSquareSum sum = sum_of_squares(mixed_terms(3, 200));
  EXPECT_EQ(ExactSquareSum::from_hex(sum.hex()), sum);
  EXPECT_EQ(ExactSquareSum::from_hex("0x0"), ExactSquareSum{});
  for (const char* bad : {"0x", "12", "0x0f", "0xg", "0X1", "0xAB", "-0x1", ""}) {
    EXPECT_FALSE(ExactSquareSum::from_hex(bad).has_value()) << "'" << bad << "'";
  }
}

TEST(ExactSquareSum, refusesNonFiniteTerms) {
  ExactSquareSum sum;
  EXPECT_THROW(sum.add_square(std::nan("")), std::invalid_argument);
  EXPECT_THROW(sum.add_square(-INFINITY), std::invalid_argument);
}

}  // namespace
}  // namespace pecheck::sweep
