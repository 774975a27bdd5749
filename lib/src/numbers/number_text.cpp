#include "pecheck/number_text.hpp"

#include <cinttypes>
#include <cstdio>

namespace pecheck {

std::string significant(double x, int digits) {
  char buffer[64];
  std::snprintf(buffer, sizeof buffer, "%.*g", digits, x);
  return buffer;
}

std::string round_trip(double x) { return significant(x, 17); }

std::string hex64(std::uint64_t x) {
  char buffer[24];
  std::snprintf(buffer, sizeof buffer, "0x%016" PRIx64, x);
  return buffer;
}

std::string exact_decimal(DoubleDouble x) { return significant(x.hi + x.lo, 21); }

}  // namespace pecheck
