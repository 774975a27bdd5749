// A sum of non-negative doubles that does not depend on the order of its
// addends.
//
// validate's workers take rows in whatever order the scheduler gives them,
// and a double sum rounds differently in another order: the RMS error would
// change in its last bits from run to run, and the same input would not give
// the same report. Here each addend's 53-bit significand is added, as an
// integer, to the bucket of its binade; integer additions are exact, so every
// order gives the same buckets, and the buckets are rounded to one double in a
// fixed order (smallest binade first).
#pragma once

#include <array>
#include <cstddef>

namespace pecheck::properties {

class OrderFreeSum {
 public:
  // x >= 0 and finite (a square of an error); anything else is ignored.
  void add(double x);
  void merge(const OrderFreeSum& other);
  double value() const;

 private:
  __extension__ typedef unsigned __int128 Bucket;
  // frexp's exponents of finite positive doubles: -1073 to 1024.
  static constexpr int lowest_exponent = -1073;
  static constexpr std::size_t bucket_count = 1024 - lowest_exponent + 1;
  // Headroom: each addend is below 2^53, so a bucket holds 2^75 addends.
  std::array<Bucket, bucket_count> buckets_{};
};

}  // namespace pecheck::properties
