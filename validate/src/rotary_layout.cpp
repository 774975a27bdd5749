#include "rotary_layout.hpp"

#include <algorithm>
#include <cstdint>
#include <utility>

#include "pecheck/half_bits.hpp"

namespace pecheck::validate {

namespace {

// A twin must equal its column exactly: both copies come from one tensor.
// Rows of one storage type T, each value as `decode` reads it (the doubles
// at() reads: equal exactly when at()'s are), by a pointer to the row rather
// than a decoded address per value.
template <typename T, typename Decode>
double twin_fraction_of(const Table& cos, const Table& sin, const std::vector<std::int64_t>& rows, std::int64_t pairs,
                        std::int64_t (*twin)(std::int64_t, std::int64_t, std::int64_t), Decode decode) {
  // The rows are far apart (spread over the cache) and each is read to its
  // end: their lines are asked for a few rows ahead, or each row waits on
  // memory line by line (0.3 ms over 256 rows of a 65536 x 128 float32 cache).
  constexpr std::size_t ahead = 4;
  const auto fetch = [&](std::size_t k) {
    if (k >= rows.size()) return;
    const auto* c = reinterpret_cast<const char*>(cos.storage<T>().data() + rows[k] * cos.cols);
    const auto* s = reinterpret_cast<const char*>(sin.storage<T>().data() + rows[k] * sin.cols);
    for (std::int64_t b = 0; b < cos.cols * static_cast<std::int64_t>(sizeof(T)); b += 64) {
      __builtin_prefetch(c + b);
      __builtin_prefetch(s + b);
    }
  };
  for (std::size_t k = 0; k < ahead; ++k) fetch(k);
  std::int64_t equal_rows = 0;
  for (std::size_t k = 0; k < rows.size(); ++k) {
    fetch(k + ahead);
    const std::int64_t r = rows[k];
    const T* c = cos.storage<T>().data() + r * cos.cols;
    const T* s = sin.storage<T>().data() + r * sin.cols;
    bool equal = true;
    for (std::int64_t i = 0; i < pairs && equal; ++i) {
      const auto [a, b] = std::pair{twin(i, pairs, 0), twin(i, pairs, 1)};
      equal = decode(c[a]) == decode(c[b]) && decode(s[a]) == decode(s[b]);
    }
    equal_rows += equal;
  }
  return static_cast<double>(equal_rows) / static_cast<double>(rows.size());
}

double twin_fraction(const Table& cos, const Table& sin, const std::vector<std::int64_t>& rows, std::int64_t pairs,
                     std::int64_t (*twin)(std::int64_t, std::int64_t, std::int64_t)) {
  if (rows.empty() || pairs == 0) return 0.0;
  if (cos.format != sin.format) {
    std::int64_t equal_rows = 0;
    for (std::int64_t r : rows) {
      bool equal = true;
      for (std::int64_t i = 0; i < pairs && equal; ++i) {
        const auto [a, b] = std::pair{twin(i, pairs, 0), twin(i, pairs, 1)};
        equal = cos.at(r, a) == cos.at(r, b) && sin.at(r, a) == sin.at(r, b);
      }
      equal_rows += equal;
    }
    return static_cast<double>(equal_rows) / static_cast<double>(rows.size());
  }
  switch (cos.format) {
    case FormatId::float64:
      return twin_fraction_of<double>(cos, sin, rows, pairs, twin, [](double v) { return v; });
    case FormatId::float32:
      return twin_fraction_of<float>(cos, sin, rows, pairs, twin, [](float v) { return static_cast<double>(v); });
    case FormatId::float16:
      return twin_fraction_of<std::uint16_t>(cos, sin, rows, pairs, twin,
                                             [](std::uint16_t v) { return float16_bits_to_double(v); });
    case FormatId::bfloat16:
      return twin_fraction_of<std::uint16_t>(cos, sin, rows, pairs, twin,
                                             [](std::uint16_t v) { return bfloat16_bits_to_double(v); });
  }
  return 0.0;
}

std::int64_t half_twin(std::int64_t i, std::int64_t n, std::int64_t copy) { return i + copy * n; }
std::int64_t interleaved_twin(std::int64_t i, std::int64_t, std::int64_t copy) { return 2 * i + copy; }

}  // namespace

RotaryLayoutFit fit_rotary_layout(const Table& cos, const Table& sin, const std::vector<std::int64_t>& rows) {
  RotaryLayoutFit fit;
  if (cos.cols % 2 != 0) return fit;
  const std::int64_t n = cos.cols / 2;
  fit.rotate_half_fraction = twin_fraction(cos, sin, rows, n, half_twin);
  fit.interleaved_fraction = twin_fraction(cos, sin, rows, n, interleaved_twin);
  constexpr double most_rows = 0.9;
  if (fit.rotate_half_fraction >= most_rows && fit.rotate_half_fraction >= fit.interleaved_fraction) {
    fit.layout = RotaryLayout::rotate_half;
  } else if (fit.interleaved_fraction >= most_rows) {
    fit.layout = RotaryLayout::interleaved;
  }
  return fit;
}

std::int64_t frequency_column(RotaryLayout layout, std::int64_t, std::int64_t i) {
  return layout == RotaryLayout::interleaved ? 2 * i : i;
}

std::int64_t frequency_count(RotaryLayout layout, std::int64_t cols) {
  return layout == RotaryLayout::complex_form ? cols : cols / 2;
}

std::vector<std::int64_t> spread_rows(std::int64_t rows, std::int64_t most) {
  std::vector<std::int64_t> out;
  if (rows <= 0) return out;
  if (rows <= most) {
    for (std::int64_t r = 0; r < rows; ++r) out.push_back(r);
    return out;
  }
  for (std::int64_t k = 0; k < most; ++k) out.push_back(k * (rows - 1) / (most - 1));
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

}  // namespace pecheck::validate
