// Which columns of a rotated output rotate together, read from the data: a
// pairing keeps |out pair| / |in pair| at one value (the attention factor)
// whatever the angle, and a wrong one does not. And, per position and pair,
// the rotation that maps the input pairs onto the output pairs (least
// squares over the tokens at that position), as cos and sin tables a rotary
// cache's detection can read.
#pragma once

#include <cstdint>
#include <utility>
#include <vector>

#include "pecheck/format.hpp"
#include "pecheck/rotary_convention.hpp"
#include "pecheck/table.hpp"

namespace pecheck::validate {

// The subject's values, (rows, head_dim) each, in the formats they are
// stored in; each entry is decoded (exactly) where it is read.
struct RotatedValues {
  TableView input;
  TableView output;
  std::int64_t rows = 0;
  std::int64_t head_dim = 0;
  double in(std::int64_t r, std::int64_t c) const { return input.at(r, c); }
  double out(std::int64_t r, std::int64_t c) const { return output.at(r, c); }
};

// The two columns of pair i (interleaved and complex pair 2i, 2i + 1).
inline std::pair<std::int64_t, std::int64_t> pair_columns(RotaryLayout layout, std::int64_t width, std::int64_t i) {
  if (layout == RotaryLayout::rotate_half) return {i, i + width / 2};
  return {2 * i, 2 * i + 1};
}

// 1 + the last column in which some row's output differs from its input
// (bit for bit, signed zeros told apart); 0 when none does.
std::int64_t changed_width(const RotatedValues& values);

struct PairingFit {
  RotaryLayout layout = RotaryLayout::rotate_half;
  std::int64_t width = 0;
  double fraction = 0.0;  // sampled pairs with |out| / |in| within tolerance of the median
  double factor = 0.0;    // that median
};

// Every (layout, width) of `widths` (even, at most head_dim) tried on up to
// 2048 rows spread over the subject. The best fraction of pairs with |out| /
// |in| within pairing_tolerance of the median wins; a tie within 1% goes to
// the earlier candidate.
PairingFit fit_pairing(const RotatedValues& values, FormatId format, const std::vector<std::int64_t>& widths);

// The relative tolerance of |out| / |in| for a correct kernel's outputs in
// `format` (p bits): rounded there from a rotation whose cos and sin were
// themselves rounded there, within about 4 * 2^-p of the norm (two roundings
// of each component and of cos and sin); 8 * 2^-p leaves room for the
// kernel's float32 steps. The attention factor is judged with it.
double rotation_norm_tolerance(FormatId format);
// The pairing's: the larger of that and 2^-5, so that cos and sin held in
// bfloat16 (norms off by up to 2^-8) still pair; a wrong pairing mixes two
// unrelated pairs, whose norms differ by O(1).
double pairing_tolerance(FormatId format);

// Rows r = 0..count-1 hold position first + r, column i pair i: the least
// squares rotation A (cos, sin) of the input pairs onto the output pairs of
// every token at that position (NaN where no token has a nonzero pair).
struct RotationTables {
  Table cos;
  Table sin;
};
// `threads` as worker_count takes it (0: one per machine thread); the sums
// are the same whatever it is.
RotationTables rotation_tables(const RotatedValues& values, const std::vector<std::int64_t>& row_position,
                               RotaryLayout layout, std::int64_t width, std::int64_t first, std::int64_t count,
                               int threads = 0);

}  // namespace pecheck::validate
