// A sum of non-negative doubles that does not depend on the order of its
// addends, nor on how they were split into parts and merged.
//
// Workers take rows in whatever order the scheduler gives them, and shards of
// a sweep merge in any order; a double sum rounds differently in another
// order, so the RMS error would change in its last bits from run to run.
// Here each addend's 53-bit significand is added, as an integer, to the
// bucket of its binade: integer additions are exact, so the buckets are a
// function of the set of addends alone, and value() rounds them to one
// double in a fixed order (smallest binade first). The buckets can be written
// out and read back exactly (text()), so a sum travels between processes.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace pecheck::accuracy {

class OrderFreeSum {
 public:
  // x >= 0 and finite (a square of an error); anything else is ignored.
  void add(double x);
  // x added `times` times (as many add(x) calls would: the same buckets).
  void add(double x, std::int64_t times);
  void merge(const OrderFreeSum& other);
  double value() const;

  // The buckets as "0x1f8p-60 + 0x3p-52" (each bucket's integer and its
  // scale, smallest binade first; "0" when empty), and back: the exact state,
  // one spelling per state. from_text gives nothing for any other text.
  std::string text() const;
  static std::optional<OrderFreeSum> from_text(std::string_view text);

  bool operator==(const OrderFreeSum&) const = default;

 private:
  __extension__ typedef unsigned __int128 Bucket;
  // frexp's exponents of finite positive doubles: -1073 to 1024.
  static constexpr int lowest_exponent = -1073;
  static constexpr std::size_t bucket_count = 1024 - lowest_exponent + 1;
  // Headroom: each addend is below 2^53, so a bucket holds 2^75 addends.
  std::array<Bucket, bucket_count> buckets_{};
};

}  // namespace pecheck::accuracy
