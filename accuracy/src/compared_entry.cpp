#include "pecheck/accuracy/compared_entry.hpp"

#include <bit>

namespace pecheck::accuracy {

namespace {

bool same_bits(double a, double b) { return std::bit_cast<std::uint64_t>(a) == std::bit_cast<std::uint64_t>(b); }

}  // namespace

bool ComparedEntry::operator==(const ComparedEntry& other) const {
  return key == other.key && same_bits(value, other.value) && same_bits(exact.hi, other.exact.hi) &&
         same_bits(exact.lo, other.exact.lo) && error.mismatch == other.error.mismatch &&
         same_bits(error.ulps, other.error.ulps) && same_bits(abs_error, other.abs_error);
}

ComparedEntry compare_entry(const EntryKey& key, double value, DoubleDouble exact, const Format& format) {
  return ComparedEntry{key, value, exact, ulp_error(value, exact, format), absolute_error(value, exact)};
}

}  // namespace pecheck::accuracy
