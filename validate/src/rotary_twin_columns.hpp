// The columns of a rotary cache that hold one frequency's value twice (the
// rotate-half layout's c and c + d/2, the interleaved layout's 2i and
// 2i + 1). Where a row's two copies are equal bit for bit, its comparison
// measures one of each, standing for both (accuracy::RowColumns): half the
// entries, the same counts, extremes and kept entries, and an RMS summed in
// another order. A row whose copies differ is compared whole.
#pragma once

#include <cstdint>
#include <cstring>
#include <span>
#include <vector>

#include "pecheck/accuracy/accumulator.hpp"
#include "pecheck/rotary_convention.hpp"

namespace pecheck::validate {

class TwinColumns {
 public:
  // For a cache of `cols` columns per table under `convention`.
  TwinColumns(const RotaryConvention& convention, std::int64_t cols);

  // Every frequency in exactly two columns (not the complex layout, nor a
  // cache of another width than the convention's).
  bool apply() const { return !first_.empty(); }
  // A row's distinct entries: cos's first copies then sin's, each column
  // of the row (cos's columns, then sin's) standing for two.
  accuracy::RowColumns row_columns() const { return {entry_column_, 2}; }
  std::size_t entries() const { return entry_column_.size(); }

  // Writes a row's first copies, cos's then sin's, into `out` (entries()
  // of them) when every second copy equals its first bit for bit; false
  // (out then unspecified) when one differs.
  template <typename T>
  bool distinct(const T* cos_row, const T* sin_row, T* out) const {
    const std::size_t n = first_.size();
    if (halves_) {  // first copies 0 .. n - 1, second ones n .. 2n - 1
      if (std::memcmp(cos_row, cos_row + n, n * sizeof(T)) != 0) return false;
      if (std::memcmp(sin_row, sin_row + n, n * sizeof(T)) != 0) return false;
      std::memcpy(out, cos_row, n * sizeof(T));
      std::memcpy(out + n, sin_row, n * sizeof(T));
      return true;
    }
    bool equal = true;
    for (std::size_t e = 0; e < n; ++e) {
      equal &= std::memcmp(cos_row + first_[e], cos_row + twin_[e], sizeof(T)) == 0;
      equal &= std::memcmp(sin_row + first_[e], sin_row + twin_[e], sizeof(T)) == 0;
      out[e] = cos_row[first_[e]];
      out[n + e] = sin_row[first_[e]];
    }
    return equal;
  }
  // The exact values of the distinct entries from a row's by frequency
  // (cos's then sin's, as the reference gives a plain row): those values
  // themselves where the entries follow the frequencies' order (both
  // layouts), else gathered into `scratch` (entries() of them).
  std::span<const double> distinct_exact(std::span<const double> by_frequency, double* scratch) const {
    const std::size_t n = first_.size();
    const std::size_t frequencies = by_frequency.size() / 2;  // where sin's values start
    if (frequency_order_ && frequencies == n) return by_frequency;
    for (std::size_t e = 0; e < n; ++e) {
      scratch[e] = by_frequency[frequency_[e]];
      scratch[n + e] = by_frequency[frequencies + frequency_[e]];
    }
    return {scratch, 2 * n};
  }
  // The same from cos's and sin's by column.
  template <typename T>
  void distinct_exact(std::span<const T> cos, std::span<const T> sin, T* out) const {
    const std::size_t n = first_.size();
    if (halves_) {
      std::memcpy(out, cos.data(), n * sizeof(T));
      std::memcpy(out + n, sin.data(), n * sizeof(T));
      return;
    }
    for (std::size_t e = 0; e < n; ++e) {
      out[e] = cos[first_[e]];
      out[n + e] = sin[first_[e]];
    }
  }

 private:
  std::vector<std::size_t> first_, twin_;   // each frequency's two columns, first < twin, by first
  std::vector<std::int64_t> entry_column_;  // first_, then cols + first_
  std::vector<std::size_t> frequency_;      // each entry's frequency
  bool halves_ = false;
  bool frequency_order_ = false;  // frequency_[e] = e
};

}  // namespace pecheck::validate
