#include "pecheck/properties/exact_arithmetic.hpp"

#include <cmath>
#include <stdexcept>
#include <string>
#include <utility>

#include "pecheck/double_double.hpp"

namespace pecheck::properties {

__extension__ using uint128 = unsigned __int128;  // GCC and Clang; -Wpedantic knows it is an extension

void ExactSum::add(double x) {
  // Grow-Expansion: run x through the components from the smallest up; each
  // two_sum leaves an exact (sum, error) pair, the errors stay as components.
  double carry = x;
  std::size_t kept = 0;
  for (double part : parts_) {
    const DoubleDouble s = two_sum(carry, part);
    if (s.lo != 0.0) parts_[kept++] = s.lo;
    carry = s.hi;
  }
  parts_.resize(kept);
  if (carry != 0.0) parts_.push_back(carry);
}

void ExactSum::add_product(double a, double b) {
  const DoubleDouble p = two_prod(a, b);
  add(p.hi);
  add(p.lo);
}

bool ExactSum::is_zero() const { return parts_.empty(); }

double ExactSum::approximate() const {
  double sum = 0.0;
  for (double part : parts_) sum += part;
  return sum;
}

namespace {

constexpr std::uint64_t kPrime = (std::uint64_t{1} << 61) - 1;  // a Mersenne prime

// a b mod 2^61 - 1 for a, b < 2^61: since 2^61 = 1 mod p, the product's high
// and low 61-bit halves add up to it modulo p.
std::uint64_t mul_mod(std::uint64_t a, std::uint64_t b) {
  const uint128 product = uint128{a} * b;
  std::uint64_t r = static_cast<std::uint64_t>(product & kPrime) + static_cast<std::uint64_t>(product >> 61);
  if (r >= kPrime) r -= kPrime;
  return r;
}

std::uint64_t pow_mod(std::uint64_t base, std::uint64_t exponent) {
  std::uint64_t result = 1;
  while (exponent > 0) {
    if (exponent & 1U) result = mul_mod(result, base);
    base = mul_mod(base, base);
    exponent >>= 1U;
  }
  return result;
}

// v * 2^kScale modulo p for a finite double v = m 2^k, m an integer below 2^53:
// every k is at least -1074 - 52, so k + kScale >= 0 and the image is of an integer.
constexpr int kScale = 1200;

std::uint64_t residue(double v) {
  if (!std::isfinite(v)) throw std::invalid_argument("rank_lower_bound: entries must be finite");
  if (v == 0.0) return 0;
  int exponent = 0;
  const double fraction = std::frexp(std::fabs(v), &exponent);  // |v| = fraction 2^exponent, fraction in [0.5, 1)
  const auto mantissa = static_cast<std::uint64_t>(std::ldexp(fraction, 53));
  const auto shift = static_cast<std::uint64_t>(exponent - 53 + kScale);
  const std::uint64_t r = mul_mod(mantissa % kPrime, pow_mod(2, shift));
  return std::signbit(v) ? (r == 0 ? 0 : kPrime - r) : r;
}

}  // namespace

std::int64_t rank_lower_bound(const std::vector<double>& values, std::int64_t rows, std::int64_t cols) {
  if (rows < 0 || cols < 0 || values.size() != static_cast<std::size_t>(rows * cols)) {
    throw std::invalid_argument("rank_lower_bound: " + std::to_string(values.size()) + " values for a " +
                                std::to_string(rows) + " x " + std::to_string(cols) + " matrix");
  }
  std::vector<std::uint64_t> m(values.size());
  for (std::size_t i = 0; i < values.size(); ++i) m[i] = residue(values[i]);
  const auto at = [&](std::int64_t r, std::int64_t c) -> std::uint64_t& { return m[static_cast<std::size_t>(r * cols + c)]; };
  std::int64_t rank = 0;
  for (std::int64_t c = 0; c < cols && rank < rows; ++c) {
    std::int64_t pivot = rank;
    while (pivot < rows && at(pivot, c) == 0) ++pivot;
    if (pivot == rows) continue;
    for (std::int64_t k = 0; k < cols; ++k) std::swap(at(pivot, k), at(rank, k));
    const std::uint64_t inverse = pow_mod(at(rank, c), kPrime - 2);  // Fermat
    for (std::int64_t r = rank + 1; r < rows; ++r) {
      if (at(r, c) == 0) continue;
      const std::uint64_t factor = mul_mod(at(r, c), inverse);
      for (std::int64_t k = c; k < cols; ++k) {
        at(r, k) = (at(r, k) + kPrime - mul_mod(factor, at(rank, k))) % kPrime;
      }
    }
    ++rank;
  }
  return rank;
}

double integer_sqrt_rounded(std::int64_t d, const Format& format) {
  if (d < 1 || d > (std::int64_t{1} << 40)) {
    throw std::invalid_argument("integer_sqrt_rounded: d must be in [1, 2^40], got " + std::to_string(d));
  }
  // sqrt(d) in [2^e, 2^(e+1)); the format's spacing there is 2^q, q = e - p + 1.
  // sqrt(d) / 2^q = sqrt(d 4^-q) = sqrt(n): for q <= 0, n = d 4^-q is an
  // integer below 2^(2p) <= 2^106; round its square root to an integer a
  // (ties to even: compare 4n with (2a + 1)^2), and the result is a 2^q.
  // For q > 0 (only when d >= 4^p, bfloat16 beyond d = 65535) n = d / 4^q is
  // not an integer; compare d with (2a + 1)^2 4^q / 4 instead.
  int e = 0;
  while (e < 30 && (std::int64_t{1} << (2 * (e + 1))) <= d) ++e;
  const int q = e - format.precision + 1;
  uint128 a = 0;
  bool above_midpoint = false;
  bool at_midpoint = false;
  if (q <= 0) {
    const uint128 n = uint128(d) << (-2 * q);
    a = static_cast<uint128>(std::sqrt(static_cast<double>(n)));
    while (a * a > n) --a;
    while ((a + 1) * (a + 1) <= n) ++a;
    const uint128 four_n = 4 * n;
    const uint128 mid_squared = (2 * a + 1) * (2 * a + 1);
    above_midpoint = four_n > mid_squared;
    at_midpoint = four_n == mid_squared;
  } else {
    const auto scale = uint128(1) << (2 * q);  // 4^q
    a = static_cast<uint128>(std::sqrt(static_cast<double>(d) / static_cast<double>(scale)));
    while (a * a * scale > uint128(d)) --a;
    while ((a + 1) * (a + 1) * scale <= uint128(d)) ++a;
    const uint128 four_d = 4 * uint128(d);
    const uint128 mid_squared = (2 * a + 1) * (2 * a + 1) * scale;
    above_midpoint = four_d > mid_squared;
    at_midpoint = four_d == mid_squared;
  }
  if (above_midpoint || (at_midpoint && (a & 1U) != 0)) ++a;
  return std::ldexp(static_cast<double>(static_cast<std::uint64_t>(a)), q);  // a <= 2^p: exact
}

}  // namespace pecheck::properties
