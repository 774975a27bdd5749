// round_nearest against lib's round_to_format: every format, doubles near
// every binade edge and midpoint of the format and random bit patterns.
#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <random>

#include "pecheck/reference/nearest_rounding.hpp"

namespace pecheck {
namespace {

void expect_same(double x, const Format& f) {
  const double want = round_to_format(x, f);
  const double got = reference::round_nearest(x, f);
  ASSERT_EQ(std::bit_cast<std::uint64_t>(got), std::bit_cast<std::uint64_t>(want))
      << f.name << " x = " << std::hexfloat << x << " want " << want << " got " << got;
}

TEST(NearestRounding, agreesWithRoundToFormatOnEdgesMidpointsAndRandomBits) {
  std::mt19937_64 random(5);
  for (const FormatId id : {FormatId::float32, FormatId::float16, FormatId::bfloat16, FormatId::float64}) {
    const Format& f = format_of(id);
    for (int e = f.min_exponent - 3; e <= f.max_exponent + 1; ++e) {
      const double edge = std::ldexp(1.0, e);
      const double half_ulp = std::ldexp(1.0, e - f.precision);
      for (const double base :
           {edge, edge + half_ulp, edge + 3 * half_ulp, 2 * edge - half_ulp, 2 * edge - 3 * half_ulp}) {
        for (const double x : {base, std::nextafter(base, 0.0), std::nextafter(base, 1e308)}) {
          expect_same(x, f);
          expect_same(-x, f);
        }
      }
    }
    for (int k = 0; k < 200000; ++k) {
      const double x = std::bit_cast<double>(random());
      if (!std::isfinite(x)) continue;
      expect_same(x, f);
      expect_same(std::ldexp(std::fmod(std::fabs(x), 1.0) + 1.0, static_cast<int>(random() % 80) - 40), f);
    }
  }
}

}  // namespace
}  // namespace pecheck
