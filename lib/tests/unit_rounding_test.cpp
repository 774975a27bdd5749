// The vectorisable float16 / bfloat16 rounding of the fast path
// (lib/src/fast/unit_rounding.hpp, and the AVX-512 routes of
// unit_rounding_avx512.hpp where they run: a native build's own, or a
// portable build's x86_64_v4 variant's, unit_rounding_avx512_probe.cpp)
// against the generic one of half_bits.hpp, on the interval it is for,
// [-1, 1]: every tie and near-tie at every binade of float16, both formats'
// subnormals and their edges, signed zeros, and random doubles. The generic
// rounding is itself checked against round_to_format in format_test.cpp.
#include "unit_rounding.hpp"

// GCC 12 reports its own AVX-512 headers as reading an uninitialised value
// (the pass-through operand of an all-ones mask, never read), once they are
// inlined here: a false positive, as in sincos_turns.cpp.
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#endif
#include "unit_rounding_avx512.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <random>
#include <vector>

#include "pecheck/format.hpp"
#include "pecheck/isa.hpp"
#include "test_seed.hpp"
#include "unit_rounding_avx512_probe.hpp"

namespace pecheck {
namespace {

// The values around x: x itself, one double ulp either side, and the same
// for -x.
std::vector<double> around(double x) {
  std::vector<double> values;
  for (const double v : {x, -x}) {
    values.push_back(v);
    values.push_back(std::nextafter(v, 2.0));
    values.push_back(std::nextafter(v, -2.0));
  }
  return values;
}

// How often the fast bfloat16 route declined (a float midpoint met).
std::int64_t declined = 0;

// Whether the AVX-512 routes run here: those of a native build with AVX-512,
// or, in a portable build, the x86_64_v4 variant's (compiled apart,
// unit_rounding_avx512_probe.cpp) where this CPU runs that variant.
bool vector_routes_here() {
#if defined(PECHECK_TEST_AVX512_PROBE_VARIANT)
  for (const isa::Variant& variant : isa::variants()) {
    if (variant.name == PECHECK_TEST_AVX512_PROBE_VARIANT) return variant.runs_here;
  }
  return false;
#else
  return PECHECK_UNIT_ROUNDING_AVX512 != 0;
#endif
}

// The vector conversions of unit_rounding_avx512.hpp too, where they run: x
// in every lane position, contiguous and interleaved.
void expect_vector_rounding_same_as_generic(double x) {
#if PECHECK_UNIT_ROUNDING_AVX512 || defined(PECHECK_TEST_AVX512_PROBE_VARIANT)
  static const bool here = vector_routes_here();
  if (!here) return;
  double lanes[8];
  const double other[8] = {-0.75, -0.75, -0.75, -0.75, -0.75, -0.75, -0.75, -0.75};
  for (int lane = 0; lane < 8; ++lane) {
    for (int k = 0; k < 8; ++k) lanes[k] = k == lane ? x : 0.25 * k;
    testing::VectorRoundings r{};
    testing::avx512_probe_round(lanes, other, r);
    ASSERT_EQ(r.float16[lane], round_to_float16_bits(x)) << std::hexfloat << x;
    ASSERT_EQ(r.bfloat16[lane], round_to_bfloat16_bits(x)) << std::hexfloat << x;
    ASSERT_EQ(r.float16_pairs[2 * lane], round_to_float16_bits(x)) << std::hexfloat << x;
    ASSERT_EQ(r.float16_pairs[2 * lane + 1], round_to_float16_bits(-0.75));
    ASSERT_EQ(r.bfloat16_pairs[2 * lane + 1], round_to_bfloat16_bits(x)) << std::hexfloat << x;
    // The routes for values that are zero or normal in float: exact, or they
    // decline (a float midpoint of bfloat16) and leave the output alone.
    if (x == 0.0 || std::fabs(x) >= 0x1p-126) {
      if (r.normal_taken) {
        ASSERT_EQ(r.bfloat16_normal[lane], round_to_bfloat16_bits(x)) << std::hexfloat << x;
        ASSERT_EQ(r.bfloat16_normal_other[lane], round_to_bfloat16_bits(-0.75));
      } else {
        ASSERT_EQ(r.bfloat16_normal[lane], 0x7fc1);
        ASSERT_EQ(r.bfloat16_normal_other[lane], 0x7fc1);
        ++declined;
      }
      if (r.normal_pairs_taken) {
        ASSERT_EQ(r.bfloat16_normal_pairs[2 * lane], round_to_bfloat16_bits(x)) << std::hexfloat << x;
        ASSERT_EQ(r.bfloat16_normal_pairs[2 * lane + 1], round_to_bfloat16_bits(-0.75));
      } else {
        ASSERT_EQ(r.bfloat16_normal_pairs[2 * lane], 0x7fc1);
      }
      // Both routes see the same floats, so both take them or neither.
      ASSERT_EQ(r.normal_taken, r.normal_pairs_taken) << std::hexfloat << x;
    }
  }
#else
  (void)x;
#endif
}

void expect_same_as_generic(double x) {
  if (!(std::fabs(x) <= 1.0)) return;
  EXPECT_EQ(unit_interval_float16_bits(x), round_to_float16_bits(x)) << std::hexfloat << x;
  EXPECT_EQ(unit_interval_bfloat16_bits(x), round_to_bfloat16_bits(x)) << std::hexfloat << x;
  expect_vector_rounding_same_as_generic(x);
}

TEST(UnitRounding, tiesAndTheirNeighboursRoundAsTheGenericRoundingDoes) {
  declined = 0;
  // Every float16 value k 2^(e-10) in [2^-25, 1], and the midpoints between
  // neighbours (the ties), for a sample of k in each binade; the same for
  // bfloat16's spacing 2^(e-7).
  for (int e = -25; e <= 0; ++e) {
    for (int k = 0; k <= 2048; k += (k < 16 || k > 2032) ? 1 : 37) {
      for (const int spacing_bits : {10, 7}) {
        const double value = std::ldexp(static_cast<double>(k), e - spacing_bits);
        const double tie = std::ldexp(static_cast<double>(2 * k + 1), e - spacing_bits - 1);
        for (const double x : around(value)) expect_same_as_generic(x);
        for (const double x : around(tie)) expect_same_as_generic(x);
      }
    }
  }
  // The bfloat16 ties and their double neighbours round to float midpoints:
  // the fast route must have declined there (and was right everywhere else).
  if (vector_routes_here()) {
    EXPECT_GT(declined, 0);
  }
}

TEST(UnitRounding, subnormalsZerosAndEdgesRoundAsTheGenericRoundingDoes) {
  const double edges[] = {0.0,
                          1.0,
                          0x1p-14,
                          0x1p-24,
                          0x1p-25,
                          0x1.8p-25,
                          0x1.ffcp-15,
                          0x1.ffep-15,
                          0x1p-126,
                          0x1p-133,
                          0x1p-134,
                          0x1.8p-134,
                          0x1.fcp-127,
                          0x1.fep-127,
                          0x1p-1022,
                          0x1p-1074,
                          0x1.fffffffffffffp-1,
                          0x1.ffcp-1};
  for (const double edge : edges) {
    for (const double x : around(edge)) expect_same_as_generic(x);
  }
  EXPECT_EQ(unit_interval_float16_bits(-0.0), 0x8000);
  EXPECT_EQ(unit_interval_bfloat16_bits(-0.0), 0x8000);
  EXPECT_EQ(unit_interval_float16_bits(0.0), 0);
}

TEST(UnitRounding, randomValuesRoundAsTheGenericRoundingDoes) {
  std::mt19937_64 rng(testing::seed("UnitRounding"));
  std::uniform_real_distribution<double> unit(-1.0, 1.0);
  std::uniform_int_distribution<int> exponent(-140, 0);
  for (int n = 0; n < 200000; ++n) {
    expect_same_as_generic(unit(rng));
    expect_same_as_generic(std::ldexp(unit(rng), exponent(rng)));
  }
}

}  // namespace
}  // namespace pecheck
