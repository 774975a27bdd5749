// The pairing of a rotary cache's columns, read from the cache: rotate-half
// caches repeat their n frequencies as cat(freqs, freqs) (column c equals
// column c + n), interleaved ones as repeat_interleave (column 2i equals
// 2i + 1); a cache whose columns are all distinct frequencies is the complex
// form's real and imaginary parts (Meta's freqs_cis), n columns wide.
#pragma once

#include <cstdint>
#include <vector>

#include "pecheck/rotary_convention.hpp"
#include "pecheck/table.hpp"

namespace pecheck::validate {

struct RotaryLayoutFit {
  RotaryLayout layout = RotaryLayout::complex_form;
  double rotate_half_fraction = 0.0;  // rows in which every repeated column equals its twin
  double interleaved_fraction = 0.0;
};

// Over `rows`, in both tables. A layout is taken when its twins are equal
// in at least 90% of the rows (a fault may spoil a few), rotate-half first.
RotaryLayoutFit fit_rotary_layout(const Table& cos, const Table& sin, const std::vector<std::int64_t>& rows);

// The column holding frequency i (its first copy) in a layout of `cols` columns.
std::int64_t frequency_column(RotaryLayout layout, std::int64_t cols, std::int64_t i);
// Distinct frequencies in `cols` columns of the layout.
std::int64_t frequency_count(RotaryLayout layout, std::int64_t cols);

// Up to `most` rows spread evenly over [0, rows), first and last included.
std::vector<std::int64_t> spread_rows(std::int64_t rows, std::int64_t most);

}  // namespace pecheck::validate
