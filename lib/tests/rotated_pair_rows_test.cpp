// RotatedPairRows (rotated_rows.hpp), the rows the float32 rotary cache
// rounds, against the kernel's own rows (sincos_turns) at the same positions.
// A pair is either the kernel's, bit for bit (anchor rows and pairs that
// failed the |sin cos| >= 2^-14 check), or a rotated pair that passes the
// check and lies within 2^-49.8 of the kernel's: each is within E = 2^-50.2
// (rotated_rows.cpp, step 2) and 2^-52 + 2^-75.35 (step 1) of the exact value,
// and 2^-50.2 + 2^-51.99 <= 2^-49.8.
#include "rotated_rows.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdio>
#include <random>
#include <vector>

#include "pecheck/convention.hpp"
#include "split_frequencies.hpp"

namespace pecheck {
namespace {

// Positions below 2^24 where frequency 0 (1 radian per position in
// tf-tutorial) lies near a zero of sin or cos, |sin 2p| small, so that its
// rotated pairs fail the check; found with libm's sin, which only chooses.
std::vector<std::int64_t> near_zero_positions() {
  std::vector<std::int64_t> positions;
  for (std::int64_t p = (std::int64_t{1} << 24) - (std::int64_t{1} << 16); p < (std::int64_t{1} << 24); ++p) {
    if (std::fabs(std::sin(2.0 * static_cast<double>(p))) < 0x1p-13) positions.push_back(p);
  }
  return positions;
}

TEST(RotatedPairRows, everyPairIsTheKernelsOrARotationWithinTheBoundThatPassesTheCheck) {
  const double bound = std::exp2(-49.8);
  const auto split = split_frequencies(*find_preset("tf-tutorial"), 128);
  const TurnsView turns = split->view();
  RotatedPairRows rows(turns, split->rotations(), split->count());
  const std::uint64_t seed = 20261124;  // fixed so a failure reproduces
  std::mt19937_64 random(seed);
  std::uniform_int_distribution<std::int64_t> any_position(0, (std::int64_t{1} << 24) - 1);
  std::vector<std::int64_t> positions = near_zero_positions();
  const std::size_t near_zero = positions.size();
  for (int k = 0; k < 256; ++k) positions.push_back(any_position(random));
  positions.push_back(0);
  positions.push_back(128 * 1000);  // an anchor

  std::vector<double> kernel(static_cast<std::size_t>(2 * turns.padded));
  std::int64_t recomputed = 0;
  double largest_difference = 0.0;
  for (const std::int64_t p : positions) {
    const double* pairs = rows.at(p);
    kernel_pair_row(turns, p, kernel.data());
    for (std::int64_t i = 0; i < split->count(); ++i) {
      const double s = sin_in(pairs, i);
      const double c = cos_in(pairs, i);
      const double ks = sin_in(kernel.data(), i);
      const double kc = cos_in(kernel.data(), i);
      const bool kernels = std::bit_cast<std::uint64_t>(s) == std::bit_cast<std::uint64_t>(ks) &&
                           std::bit_cast<std::uint64_t>(c) == std::bit_cast<std::uint64_t>(kc);
      if (must_recompute(ks, kc) && p % split->rotations().spacing() != 0) ++recomputed;
      if (kernels) continue;
      EXPECT_FALSE(must_recompute(s, c)) << "position " << p << " frequency " << i << " seed " << seed;
      EXPECT_LE(std::fabs(s - ks), bound) << "position " << p << " frequency " << i << " seed " << seed;
      EXPECT_LE(std::fabs(c - kc), bound) << "position " << p << " frequency " << i << " seed " << seed;
      largest_difference = std::max({largest_difference, std::fabs(s - ks), std::fabs(c - kc)});
    }
  }
  // The near-zero rows must have exercised the recomputation.
  EXPECT_GT(recomputed, 0) << near_zero << " near-zero positions";
  std::printf(
      "%zu near-zero and %zu other positions (seed %llu): %lld pairs recomputed, largest difference "
      "from the kernel 2^%.2f (bound 2^-49.8)\n",
      near_zero, positions.size() - near_zero, static_cast<unsigned long long>(seed),
      static_cast<long long>(recomputed), std::log2(largest_difference));
}

TEST(RotatedPairRows, aRowsBitsDoNotDependOnTheRowsBeforeIt) {
  const auto split = split_frequencies(*find_preset("tf-tutorial"), 128);
  const TurnsView turns = split->view();
  RotatedPairRows forward(turns, split->rotations(), split->count());
  RotatedPairRows backward(turns, split->rotations(), split->count());
  const std::int64_t first = (std::int64_t{1} << 24) - 300;
  std::vector<std::vector<double>> seen;
  for (std::int64_t p = first; p < first + 300; ++p) {
    const double* pairs = forward.at(p);
    seen.emplace_back(pairs, pairs + 2 * turns.padded);
  }
  for (std::int64_t p = first + 299; p >= first; --p) {
    const double* pairs = backward.at(p);
    const std::vector<double> again(pairs, pairs + 2 * turns.padded);
    ASSERT_EQ(again, seen[static_cast<std::size_t>(p - first)]) << "position " << p;
  }
}

}  // namespace
}  // namespace pecheck
