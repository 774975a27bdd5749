#include "text_format.hpp"

#include <cinttypes>
#include <cmath>
#include <cstdio>

namespace pecheck::reports {

namespace {

const char* non_finite(double value) {
  if (std::isnan(value)) return "NaN";
  return value > 0 ? "inf" : "-inf";
}

std::string printf_double(const char* format, int digits, double value) {
  if (!std::isfinite(value)) return non_finite(value);
  char buffer[64];
  std::snprintf(buffer, sizeof buffer, format, digits, value);
  return buffer;
}

}  // namespace

std::string significant(double value, int digits) {
  return std::isfinite(value) ? pecheck::significant(value, digits) : non_finite(value);
}

std::string scientific(double value, int digits) { return printf_double("%.*e", digits, value); }

std::string ulps(double value) { return significant(value, 4); }

std::string percent(double fraction) { return printf_double("%.*f", 1, 100.0 * fraction) + "%"; }

}  // namespace pecheck::reports
