#include "pecheck/accuracy/order_free_sum.hpp"

#include <bit>
#include <cmath>
#include <cstdint>
#include <cstdlib>

namespace pecheck::accuracy {

namespace {

int hex_digit(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  return -1;
}

}  // namespace

void OrderFreeSum::add(double x) { add(x, 1); }

void OrderFreeSum::add(double x, std::int64_t times) {
  if (!(x > 0.0) || !std::isfinite(x) || times <= 0) return;
  // x = fraction 2^exponent, fraction in [1/2, 1), as frexp gives it; its
  // bucket takes fraction 2^53, an integer below 2^53 (exact). A normal x is
  // read off its bits (the significand with its leading bit, and the biased
  // exponent less 1022): frexp and ldexp are calls into libm, once per row of
  // every comparison. A subnormal x goes through frexp, which normalises it.
  const auto bits = std::bit_cast<std::uint64_t>(x);
  const auto biased = static_cast<int>(bits >> 52);
  int exponent = biased - 1022;
  std::uint64_t significand = (bits & ((std::uint64_t{1} << 52) - 1)) | (std::uint64_t{1} << 52);
  if (biased == 0) {
    const double fraction = std::frexp(x, &exponent);
    significand = static_cast<std::uint64_t>(std::ldexp(fraction, 53));
  }
  // `times` addends at once (the header's headroom counts each): a product below 2^116.
  buckets_[static_cast<std::size_t>(exponent - lowest_exponent)] +=
      static_cast<Bucket>(significand) * static_cast<Bucket>(static_cast<std::uint64_t>(times));
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

std::string OrderFreeSum::text() const {
  static constexpr char digits[] = "0123456789abcdef";
  std::string text;
  for (std::size_t k = 0; k < bucket_count; ++k) {
    Bucket bucket = buckets_[k];
    if (bucket == 0) continue;
    std::string hex;
    for (; bucket != 0; bucket >>= 4) hex.insert(hex.begin(), digits[static_cast<unsigned>(bucket & 0xf)]);
    if (!text.empty()) text += " + ";
    text += "0x" + hex + "p" + std::to_string(static_cast<int>(k) + lowest_exponent - 53);
  }
  return text.empty() ? "0" : text;
}

std::optional<OrderFreeSum> OrderFreeSum::from_text(std::string_view text) {
  OrderFreeSum sum;
  if (text == "0") return sum;
  int previous = lowest_exponent - 1;  // buckets ascend, each once
  while (true) {
    if (text.substr(0, 2) != "0x") return std::nullopt;
    text.remove_prefix(2);
    Bucket bucket = 0;
    std::size_t n = 0;
    for (; n < text.size() && hex_digit(text[n]) >= 0; ++n) {
      if (n == 0 && text[n] == '0') return std::nullopt;  // one spelling per integer, and no zero bucket
      if (n == 32) return std::nullopt;                    // beyond 128 bits
      bucket = (bucket << 4) | static_cast<unsigned>(hex_digit(text[n]));
    }
    if (n == 0 || n >= text.size() || text[n] != 'p') return std::nullopt;
    text.remove_prefix(n + 1);
    std::size_t e = text.find(' ');
    const std::string exponent_text(text.substr(0, e));
    char* end = nullptr;
    const long scale = std::strtol(exponent_text.c_str(), &end, 10);
    if (exponent_text.empty() || end != exponent_text.c_str() + exponent_text.size()) return std::nullopt;
    const long exponent = scale + 53;
    if (exponent <= previous || exponent > lowest_exponent + static_cast<long>(bucket_count) - 1) return std::nullopt;
    previous = static_cast<int>(exponent);
    sum.buckets_[static_cast<std::size_t>(exponent - lowest_exponent)] = bucket;
    if (e == std::string_view::npos) return sum;
    if (text.substr(e, 3) != " + ") return std::nullopt;
    text.remove_prefix(e + 3);
  }
}

}  // namespace pecheck::accuracy
