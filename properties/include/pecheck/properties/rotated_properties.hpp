// Properties of a rotated output (a RoPE kernel's queries or keys) checked on
// its own values, each against a bound derived from the roundings a correct
// kernel makes. Written once: the validation of an output file
// (validate/src/rotated_validation.cpp) and the checks on a kernel
// (rotated_checks.cpp: rotary/rotated-pair-norm, rotary/rotated-relative-position)
// call the same functions.
//   - every pair keeps its norm: | |out| - A |in| | <= E(in);
//   - relative position, pair by pair (q_m . k_n is their sum):
//     out_m,i . out_n,i = A^2 in_m,i^T R((n - m) theta_i) in_n,i, which depends
//     on the positions through m - n alone, within E(in_m,i) |out_n,i| + A |in_m,i| E(in_n,i)
//     + A^2 |in_m,i| |in_n,i| 5 * 2^-24 (m + n) theta_i (float32 angles, as every model has).
// E(x) = (8u + 2^-21) A |x| + 2 s, u = 2^-p the output format's unit
// roundoff and s its smallest subnormal; derived in rotated_properties.cpp.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "pecheck/format.hpp"
#include "pecheck/rotary_convention.hpp"
#include "pecheck/table.hpp"

namespace pecheck::properties {

// A property of the subject's own outputs, with its derived bound.
struct RotatedProperty {
  std::string claim;  // the sentence printed
  std::string bound;  // the bound's statement
  std::int64_t checked = 0;
  std::int64_t violations = 0;
  double worst_ratio = 0.0;     // largest |deviation| / bound
  std::int64_t worst_row = -1;  // where it is (the first row of a pair of rows)
  std::int64_t worst_pair = -1;
  bool holds() const { return checked > 0 && violations == 0; }
};

// input and output: rows x head_dim each, in the formats they are stored in;
// `format` the format the output's values have (its unit roundoff sets E).
// The pairs are those of `layout` at rotary width `width`.
RotatedProperty norm_property(const TableView& input, const TableView& output, RotaryLayout layout, std::int64_t width,
                              FormatId format, double attention_factor);

// Up to 1024 pairs of rows; `positions` the kernel's, one per row;
// `inv_freq` the convention's exact frequencies (double); `reversed` the
// rotation by -theta (a kernel read as turning the other way). M-RoPE:
// `section_positions` the temporal, height and width ids of each row and
// `pair_section` the one pair i turns by (mrope_position_row); empty: every
// pair turns by `positions`.
RotatedProperty relative_position_property(const TableView& input, const TableView& output,
                                           const std::vector<std::int64_t>& positions, RotaryLayout layout,
                                           std::int64_t width, FormatId format, double attention_factor,
                                           const std::vector<double>& inv_freq, bool reversed,
                                           const std::vector<std::vector<std::int64_t>>& section_positions = {},
                                           const std::vector<std::int64_t>& pair_section = {});

}  // namespace pecheck::properties
