#include "pecheck/properties/order_free_sum.hpp"

#include <cmath>
#include <cstdint>

namespace pecheck::properties {

void OrderFreeSum::add(double x) {
  if (!(x > 0.0) || !std::isfinite(x)) return;
  int exponent = 0;
  const double fraction = std::frexp(x, &exponent);  // x = fraction 2^exponent, fraction in [1/2, 1)
  // fraction 2^53 is an integer below 2^53: exact.
  const auto significand = static_cast<std::uint64_t>(std::ldexp(fraction, 53));
  buckets_[static_cast<std::size_t>(exponent - lowest_exponent)] += significand;
}

void OrderFreeSum::merge(const OrderFreeSum& other) {
  for (std::size_t k = 0; k < bucket_count; ++k) buckets_[k] += other.buckets_[k];
}

double OrderFreeSum::value() const {
  double total = 0.0;
  for (std::size_t k = 0; k < bucket_count; ++k) {
    if (buckets_[k] == 0) continue;
    const int exponent = static_cast<int>(k) + lowest_exponent;
    // The bucket as a double (rounded once), times 2^(exponent - 53).
    total += std::ldexp(static_cast<double>(buckets_[k]), exponent - 53);
  }
  return total;
}

}  // namespace pecheck::properties
