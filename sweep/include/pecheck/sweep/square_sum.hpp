// A sum of squares that does not depend on the order of its terms, so the
// RMS of a sweep split into shards and merged is the RMS of one run, bit for
// bit.
//
// Floating-point addition is not associative: summing the squares of shard 0
// and of shard 1 and adding the two totals gives a different double from one
// running sum, and which one depends on the shard count. Here every square is
// first rounded to a multiple of 2^-64 (an integer count of 2^-64), and those
// integers are added exactly in an unbounded integer; integer addition is
// associative and commutative, so every grouping gives the same sum.
//
// The rounding costs at most 2^-65 ULP^2 per entry: next to the mean square
// of a correctly rounded table (about 1/12 ULP^2) that is 4e-19 relative,
// and it is the same for every sharding. The square itself is exact: a
// double's 53-bit significand squared fits 106 bits, held in 128.
#pragma once

#include <compare>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace pecheck::sweep {

class ExactSquareSum {
 public:
  // The sum counts multiples of 2^-fraction_bits.
  static constexpr int fraction_bits = 64;

  // Adds x^2 rounded to the nearest multiple of 2^-64 (ties to even).
  // Throws std::invalid_argument for a NaN or an infinity.
  void add_square(double x);
  void add(const ExactSquareSum& other);

  // The sum as a double, within 2 double ulps: its two leading limbs, each
  // rounded to a double, added. A function of the integer alone.
  double value() const;

  // The integer (the sum times 2^64) in hexadecimal, "0x0" for zero, and back.
  std::string hex() const;
  static std::optional<ExactSquareSum> from_hex(std::string_view text);

  bool operator==(const ExactSquareSum&) const = default;

 private:
  // Adds (high 2^64 + low) 2^shift, shift >= 0.
  void add_shifted(std::uint64_t low, std::uint64_t high, int shift);
  void trim();

  std::vector<std::uint64_t> limbs_;  // little-endian base 2^64, no leading zero limb
};

}  // namespace pecheck::sweep
