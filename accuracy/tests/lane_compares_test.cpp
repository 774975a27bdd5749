// The ULP kernel's comparisons of eight doubles made piece by piece
// (accuracy/src/lane_compares.hpp) against the scalar comparison, lane by
// lane: every pair of a set of edge values (NaNs, signed zeros, infinities,
// subnormals, the kernel's range limits) in every lane, for each piece width
// a variant uses (16 bytes: SSE2, 32: AVX2, 64: AVX-512). The kernel's row
// tests (ulp_kernel_test, run under every variant) check the figures built
// on them.
#include <gtest/gtest.h>

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <vector>

// The 32- and 64-byte pieces return vectors wider than this build's
// registers from the compare functors; GCC warns that their calling
// convention depends on the target. They are inline, called in this file
// alone, so no call crosses conventions. (For the whole file: GCC warns at
// the end of the unit, where the functors are instantiated.)
#pragma GCC diagnostic ignored "-Wpsabi"
#include "lane_compares.hpp"

namespace pecheck::accuracy {
namespace {

using Eight = double __attribute__((vector_size(64)));
using EightMasks = std::int64_t __attribute__((vector_size(64)));

const std::vector<double>& edge_values() {
  constexpr double inf = std::numeric_limits<double>::infinity();
  static const std::vector<double> values = {std::numeric_limits<double>::quiet_NaN(),
                                             -std::numeric_limits<double>::quiet_NaN(),
                                             -inf,
                                             inf,
                                             0.0,
                                             -0.0,
                                             std::numeric_limits<double>::denorm_min(),
                                             -std::numeric_limits<double>::denorm_min(),
                                             0x1p-1000,
                                             0x1p-900,
                                             std::nextafter(0x1p-900, 0.0),
                                             0x1p1000,
                                             std::nextafter(0x1p1000, inf),
                                             0x1.fffffffffffffp1023,
                                             -0x1.fffffffffffffp1023,
                                             1.0,
                                             std::nextafter(1.0, 2.0),
                                             -1.0,
                                             0.5};
  return values;
}

// Every pair (x, y) of edge values, x in lane `lane` and y beside it, the
// other lanes holding other pairs, compared with Compare in pieces of Bytes.
template <std::size_t Bytes, typename Compare, typename Scalar>
void expect_lanes_match(Compare compare, Scalar scalar, const char* name) {
  const std::vector<double>& v = edge_values();
  const std::size_t n = v.size();
  int checked = 0;
  for (std::size_t i = 0; i < n; ++i) {
    for (std::size_t j = 0; j < n; ++j) {
      for (std::size_t lane = 0; lane < 8; ++lane) {
        Eight a;
        Eight b;
        for (std::size_t k = 0; k < 8; ++k) {
          a[k] = v[(i + k * 3 + lane) % n];
          b[k] = v[(j + k * 5) % n];
        }
        a[lane] = v[i];
        b[lane] = v[j];
        EightMasks out;
        compare_lanes<Bytes>(a, b, out, compare);
        for (std::size_t k = 0; k < 8; ++k) {
          const std::int64_t expected = scalar(a[k], b[k]) ? -1 : 0;
          ASSERT_EQ(out[k], expected) << name << " in pieces of " << Bytes << " bytes, lane " << k << ": " << a[k]
                                      << " against " << b[k];
          ++checked;
        }
      }
    }
  }
  EXPECT_EQ(checked, static_cast<int>(n * n * 8 * 8));
}

template <std::size_t Bytes>
void expect_every_compare_matches() {
  expect_lanes_match<Bytes>(
      Less{}, [](double x, double y) { return x < y; }, "<");
  expect_lanes_match<Bytes>(
      LessEqual{}, [](double x, double y) { return x <= y; }, "<=");
  expect_lanes_match<Bytes>(
      Equal{}, [](double x, double y) { return x == y; }, "==");
  expect_lanes_match<Bytes>(
      NotEqual{}, [](double x, double y) { return x != y; }, "!=");
}

TEST(LaneCompares, piecesOfSixteenBytesMatchTheScalarCompareInEveryLane) { expect_every_compare_matches<16>(); }
TEST(LaneCompares, piecesOfThirtyTwoBytesMatchTheScalarCompareInEveryLane) { expect_every_compare_matches<32>(); }
TEST(LaneCompares, oneCompareOfSixtyFourBytesMatchesTheScalarCompareInEveryLane) { expect_every_compare_matches<64>(); }

}  // namespace
}  // namespace pecheck::accuracy
