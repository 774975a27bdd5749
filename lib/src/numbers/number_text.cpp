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


std::optional<std::uint64_t> parse_decimal(std::string_view text, std::uint64_t max) {
  if (text.empty() || text.size() > 20) return std::nullopt;
  std::uint64_t x = 0;
  for (const char c : text) {
    if (c < '0' || c > '9') return std::nullopt;
    const auto digit = static_cast<std::uint64_t>(c - '0');
    if (x > (UINT64_MAX - digit) / 10) return std::nullopt;
    x = x * 10 + digit;
  }
  if (x > max) return std::nullopt;
  return x;
}

}  // namespace pecheck
