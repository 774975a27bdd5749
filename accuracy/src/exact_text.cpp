#include "pecheck/accuracy/exact_text.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <vector>

namespace pecheck::accuracy {

namespace {

// x * 10 and x / 10 in double-double, to about 2^-104 relative.
DoubleDouble times_ten(DoubleDouble x) {
  const DoubleDouble product = two_prod(x.hi, 10.0);
  return quick_two_sum(product.hi, product.lo + x.lo * 10.0);
}

DoubleDouble divided_by_ten(DoubleDouble x) {
  const double q1 = x.hi / 10.0;
  const DoubleDouble back = two_prod(q1, 10.0);  // q1 * 10 exactly
  const double remainder = ((x.hi - back.hi) - back.lo) + x.lo;
  return quick_two_sum(q1, remainder / 10.0);
}

}  // namespace

std::string decimal_text(DoubleDouble value, int digits) {
  if (std::isnan(value.hi)) return "nan";
  if (std::isinf(value.hi)) return value.hi > 0 ? "inf" : "-inf";
  if (value.hi == 0.0) return std::signbit(value.hi) ? "-0" : "0";
  const bool negative = value.hi < 0;
  DoubleDouble x = negative ? DoubleDouble{-value.hi, -value.lo} : value;
  // Bring x into [1, 10) with its decimal exponent.
  int exponent = 0;
  while (x.hi + x.lo >= 10.0) {
    x = divided_by_ten(x);
    ++exponent;
  }
  while (x.hi + x.lo < 1.0) {
    x = times_ten(x);
    --exponent;
  }
  // One digit more than asked, then round half up with the carry.
  std::vector<int> out;
  for (int k = 0; k <= digits; ++k) {
    auto digit = static_cast<int>(std::floor(x.hi));
    DoubleDouble rest = two_sum(x.hi, -static_cast<double>(digit));
    rest = quick_two_sum(rest.hi, rest.lo + x.lo);
    if (rest.hi < 0) {  // x.hi was an integer and x.lo negative
      --digit;
      rest = quick_two_sum(rest.hi + 1.0, rest.lo);
    }
    out.push_back(std::clamp(digit, 0, 9));
    x = times_ten(rest);
  }
  const bool round_up = out.back() >= 5;
  out.pop_back();
  if (round_up) {
    int k = digits - 1;
    while (k >= 0 && out[static_cast<std::size_t>(k)] == 9) out[static_cast<std::size_t>(k--)] = 0;
    if (k >= 0) {
      ++out[static_cast<std::size_t>(k)];
    } else {
      out.insert(out.begin(), 1);
      out.pop_back();
      ++exponent;
    }
  }
  std::string text = negative ? "-" : "";
  text += static_cast<char>('0' + out[0]);
  text += '.';
  for (std::size_t k = 1; k < out.size(); ++k) text += static_cast<char>('0' + out[k]);
  char suffix[16];
  std::snprintf(suffix, sizeof suffix, "e%+03d", exponent);
  return text + suffix;
}

}  // namespace pecheck::accuracy
