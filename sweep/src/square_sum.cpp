#include "pecheck/sweep/square_sum.hpp"

#include <cmath>
#include <stdexcept>

namespace pecheck::sweep {

namespace {

// GCC and Clang's 128-bit integer; __extension__ keeps -Wpedantic quiet.
__extension__ typedef unsigned __int128 uint128;

int hex_digit(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  return -1;
}

}  // namespace

void ExactSquareSum::add_square(double x) {
  if (!std::isfinite(x)) throw std::invalid_argument("ExactSquareSum: the square of a non-finite value");
  x = std::fabs(x);
  if (x == 0.0) return;
  // x = m 2^(e - 53) with m a 53-bit integer (frexp normalises subnormals
  // too), so x^2 2^64 = m^2 2^(2e - 42), m^2 < 2^106 exactly.
  int e = 0;
  const double fraction = std::frexp(x, &e);
  const auto m = static_cast<std::uint64_t>(std::ldexp(fraction, 53));
  const uint128 square = static_cast<uint128>(m) * m;
  const int shift = 2 * e - 42;
  if (shift >= 0) {
    add_shifted(static_cast<std::uint64_t>(square), static_cast<std::uint64_t>(square >> 64), shift);
    return;
  }
  // Round square 2^shift to the nearest integer, ties to even. Below
  // 2^-107 of the unit the square (< 2^106) is less than half: zero.
  const int drop = -shift;
  if (drop > 107) return;
  uint128 quotient = square >> drop;
  const uint128 remainder = square - (quotient << drop);
  const uint128 half = static_cast<uint128>(1) << (drop - 1);
  if (remainder > half || (remainder == half && (quotient & 1) != 0)) ++quotient;
  add_shifted(static_cast<std::uint64_t>(quotient), static_cast<std::uint64_t>(quotient >> 64), 0);
}

void ExactSquareSum::add_shifted(std::uint64_t low, std::uint64_t high, int shift) {
  const auto limb = static_cast<std::size_t>(shift / 64);
  const int bit = shift % 64;
  // (high, low) << bit spans three limbs.
  const std::uint64_t words[3] = {low << bit, bit == 0 ? high : (high << bit) | (low >> (64 - bit)),
                                  bit == 0 ? 0 : high >> (64 - bit)};
  if (limbs_.size() < limb + 4) limbs_.resize(limb + 4, 0);
  std::uint64_t carry = 0;
  for (std::size_t k = limb; k < limbs_.size(); ++k) {
    const std::uint64_t add = k - limb < 3 ? words[k - limb] : 0;
    if (add == 0 && carry == 0 && k - limb >= 3) break;
    const uint128 sum = static_cast<uint128>(limbs_[k]) + add + carry;
    limbs_[k] = static_cast<std::uint64_t>(sum);
    carry = static_cast<std::uint64_t>(sum >> 64);
    if (k + 1 == limbs_.size() && carry != 0) limbs_.push_back(0);
  }
  trim();
}

void ExactSquareSum::add(const ExactSquareSum& other) {
  if (limbs_.size() < other.limbs_.size() + 1) limbs_.resize(other.limbs_.size() + 1, 0);
  std::uint64_t carry = 0;
  for (std::size_t k = 0; k < limbs_.size(); ++k) {
    const std::uint64_t add = k < other.limbs_.size() ? other.limbs_[k] : 0;
    if (k >= other.limbs_.size() && carry == 0) break;
    const uint128 sum = static_cast<uint128>(limbs_[k]) + add + carry;
    limbs_[k] = static_cast<std::uint64_t>(sum);
    carry = static_cast<std::uint64_t>(sum >> 64);
    if (k + 1 == limbs_.size() && carry != 0) limbs_.push_back(0);
  }
  trim();
}

void ExactSquareSum::trim() {
  while (!limbs_.empty() && limbs_.back() == 0) limbs_.pop_back();
}

double ExactSquareSum::value() const {
  if (limbs_.empty()) return 0.0;
  const std::size_t top = limbs_.size() - 1;
  const int scale = 64 * static_cast<int>(top) - fraction_bits;
  double sum = std::ldexp(static_cast<double>(limbs_[top]), scale);
  if (top > 0) sum += std::ldexp(static_cast<double>(limbs_[top - 1]), scale - 64);
  return sum;
}

std::string ExactSquareSum::hex() const {
  if (limbs_.empty()) return "0x0";
  static constexpr char digits[] = "0123456789abcdef";
  std::string text;
  for (std::size_t k = limbs_.size(); k-- > 0;) {
    for (int nibble = 15; nibble >= 0; --nibble) {
      const char digit = digits[(limbs_[k] >> (4 * nibble)) & 0xf];
      if (text.empty() && digit == '0') continue;  // no leading zeros
      text += digit;
    }
  }
  return "0x" + text;
}

std::optional<ExactSquareSum> ExactSquareSum::from_hex(std::string_view text) {
  if (text.size() < 3 || text.substr(0, 2) != "0x") return std::nullopt;
  const std::string_view digits = text.substr(2);
  if (digits.size() > 1 && digits[0] == '0') return std::nullopt;  // one spelling per integer
  ExactSquareSum sum;
  sum.limbs_.assign((digits.size() + 15) / 16, 0);
  for (std::size_t k = 0; k < digits.size(); ++k) {
    const int digit = hex_digit(digits[digits.size() - 1 - k]);
    if (digit < 0) return std::nullopt;
    sum.limbs_[k / 16] |= static_cast<std::uint64_t>(digit) << (4 * (k % 16));
  }
  sum.trim();
  return sum;
}

}  // namespace pecheck::sweep
