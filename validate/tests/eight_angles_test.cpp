// eight_angles against the library's atan2 and against MPFR: within 4 ULP
// (about twice the largest error measured, eight_angles.hpp) on random pairs
// of every scale and quadrant, on points of the unit circle as tables hold
// them and at the reduction's boundaries (t at and around each sixteenth);
// the special values it hands to std::atan2 exactly as std::atan2.
#include <gtest/gtest.h>
#include <mpfr.h>

#include <cmath>
#include <limits>
#include <random>
#include <vector>

#include "../src/eight_angles.hpp"

namespace pecheck::validate {
namespace {

// |got - atan2(y, x)| in ULP of the exact value, from a 200-bit MPFR atan2.
double ulp_error(double got, double y, double x) {
  mpfr_t exact, my, mx;
  mpfr_inits2(200, exact, my, mx, static_cast<mpfr_ptr>(nullptr));
  mpfr_set_d(my, y, MPFR_RNDN);
  mpfr_set_d(mx, x, MPFR_RNDN);
  mpfr_atan2(exact, my, mx, MPFR_RNDN);
  const double rounded = mpfr_get_d(exact, MPFR_RNDN);
  mpfr_sub_d(exact, exact, got, MPFR_RNDN);
  const double difference = std::fabs(mpfr_get_d(exact, MPFR_RNDN));
  mpfr_clears(exact, my, mx, static_cast<mpfr_ptr>(nullptr));
  if (rounded == 0.0) return difference == 0.0 ? 0.0 : std::numeric_limits<double>::infinity();
  int exponent = 0;
  std::frexp(rounded, &exponent);
  return difference / std::ldexp(1.0, exponent - 53);
}

double largest_error(const std::vector<std::pair<double, double>>& pairs) {
  double largest = 0.0;
  for (std::size_t first = 0; first < pairs.size(); first += 8) {
    EightDoubles sin{};
    EightDoubles cos{};
    for (std::size_t j = 0; j < 8 && first + j < pairs.size(); ++j) {
      sin[j] = pairs[first + j].first;
      cos[j] = pairs[first + j].second;
    }
    const EightDoubles angles = eight_angles(sin, cos);
    for (std::size_t j = 0; j < 8 && first + j < pairs.size(); ++j) {
      largest = std::max(largest, ulp_error(angles[j], sin[j], cos[j]));
    }
  }
  return largest;
}

TEST(EightAngles, isWithinFourUlpOfAtan2OnTheUnitCircle) {
  std::mt19937_64 random(11);
  std::uniform_real_distribution<double> turn(-std::numbers::pi, std::numbers::pi);
  std::vector<std::pair<double, double>> pairs;
  for (int k = 0; k < 200000; ++k) {
    const double angle = turn(random);
    // As tables hold them: rounded to float32, or in float64.
    if (k % 2 == 0) {
      pairs.emplace_back(static_cast<float>(std::sin(angle)), static_cast<float>(std::cos(angle)));
    } else {
      pairs.emplace_back(std::sin(angle), std::cos(angle));
    }
  }
  const double largest = largest_error(pairs);
  EXPECT_LE(largest, 4.0);
  RecordProperty("largest_ulp_error", std::to_string(largest));
}

TEST(EightAngles, isWithinFourUlpAtEveryScaleAndAtTheReductionBoundaries) {
  std::mt19937_64 random(12);
  std::uniform_real_distribution<double> unit(-1.0, 1.0);
  std::uniform_int_distribution<int> scale(-900, 900);
  std::vector<std::pair<double, double>> pairs;
  for (int k = 0; k < 100000; ++k) {
    pairs.emplace_back(std::ldexp(unit(random), scale(random)), std::ldexp(unit(random), scale(random)));
  }
  // t = min / max at each sixteenth and one ULP either side, every quadrant and both orders.
  for (int sixteenths = 0; sixteenths <= 16; ++sixteenths) {
    const double t = sixteenths / 16.0;
    for (const double near : {std::nextafter(t, 0.0), t, std::nextafter(t, 2.0)}) {
      for (const double sy : {1.0, -1.0}) {
        for (const double sx : {1.0, -1.0}) {
          pairs.emplace_back(sy * near, sx * 1.0);
          pairs.emplace_back(sy * 1.0, sx * near);
        }
      }
    }
  }
  EXPECT_LE(largest_error(pairs), 4.0);
}

TEST(EightAngles, handsSpecialValuesToAtan2) {
  const double inf = std::numeric_limits<double>::infinity();
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const double tiny = std::numeric_limits<double>::denorm_min();
  const std::vector<std::pair<double, double>> pairs = {
      {0.0, 0.0}, {-0.0, 0.0}, {0.0, -0.0}, {-0.0, -0.0}, {1.0, 0.0}, {-1.0, -0.0}, {0.0, -1.0},  {-0.0, -1.0},
      {inf, 1.0}, {1.0, -inf}, {inf, inf},  {nan, 1.0},   {1.0, nan}, {tiny, tiny}, {tiny, -0.0}, {-tiny, 1.0}};
  for (std::size_t first = 0; first < pairs.size(); first += 8) {
    EightDoubles sin{};
    EightDoubles cos{};
    for (std::size_t j = 0; j < 8; ++j) {
      sin[j] = pairs[first + j].first;
      cos[j] = pairs[first + j].second;
    }
    const EightDoubles angles = eight_angles(sin, cos);
    for (std::size_t j = 0; j < 8; ++j) {
      const double expected = std::atan2(sin[j], cos[j]);
      SCOPED_TRACE(std::to_string(sin[j]) + ", " + std::to_string(cos[j]));
      if (std::isnan(expected)) {
        EXPECT_TRUE(std::isnan(angles[j]));
      } else {
        // The same value and sign (atan2(-0, 1) is -0).
        EXPECT_EQ(angles[j], expected);
        EXPECT_EQ(std::signbit(angles[j]), std::signbit(expected));
      }
    }
  }
}

}  // namespace
}  // namespace pecheck::validate
