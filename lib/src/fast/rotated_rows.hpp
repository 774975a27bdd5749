// The double values the float32, float16 and bfloat16 tables are rounded
// from. Every K-th position (an anchor) comes from the sincos_turns kernel;
// a position p0 + j in between is the anchor rotated by j positions,
//   sin(2 pi p f) = sin_0 cos_j + cos_0 sin_j,  cos(2 pi p f) = cos_0 cos_j - sin_0 sin_j,
// with sin_j, cos_j the kernel's values at position j: four products and two
// sums per pair instead of a polynomial. A pair whose product |sin cos| comes
// out below 2^-14 (a value near a zero, where the rotation's absolute error
// would be a large relative one) is taken from the kernel instead; the
// anchor rows (j = 0) are the kernel's own. Every float32 entry stays within
// 1 ulp (the bound is derived in rotated_rows.cpp).
//
// The value of an entry depends on its position, its frequency and K alone,
// and K on the plan alone, so any block of rows, on any thread, gives the
// same bits.
#pragma once

#include <bit>
#include <cmath>
#include <cstdint>
#include <vector>

#include "pecheck/page_buffer.hpp"

namespace pecheck {

// A plan's frequencies in turns, split for sincos_turns, padded to a multiple
// of sincos_lanes with zero frequencies.
struct TurnsView {
  const double* f1 = nullptr;
  const double* f2 = nullptr;
  const double* f3 = nullptr;
  std::int64_t padded = 0;
};

// A row of pairs (sin and cos of 2 pi x f_i for every padded frequency), as
// the rotation reads it: in blocks of eight frequencies, eight sin values
// then eight cos values. Besides giving vector loads whole blocks, the
// layout makes the loads advance 16 bytes per frequency, never in step with
// the stores of a row (8 bytes per frequency for float32 sin-cos pairs, less
// for the others): in step with a store stream a few bytes behind in page
// offset, every load would wait on a store it only seems to depend on (4K
// aliasing), which made rows twice as slow for some output addresses.
inline constexpr std::int64_t pair_block = 8;
inline double sin_in(const double* pair_row, std::int64_t i) {
  return pair_row[i / pair_block * 2 * pair_block + i % pair_block];
}
inline double cos_in(const double* pair_row, std::int64_t i) {
  return pair_row[i / pair_block * 2 * pair_block + pair_block + i % pair_block];
}
// The kernel's pairs at a position into a pair row.
void kernel_pair_row(const TurnsView& turns, std::int64_t position, double* pair_row);

// A rotated pair with |sin * cos| below this is recomputed by the kernel.
inline constexpr double recompute_below = 0x1p-14;

// K, the spacing of anchor positions, for a plan of this many padded
// frequencies: 128 up to 512 frequencies (d = 1024), fewer for wider tables
// so that the rotation table stays within 1 MiB (every row reads one of its
// rows, best from a core's own cache).
std::int64_t anchor_spacing(std::int64_t padded_frequencies);

// The pair at position p0 + j from the anchor's pair and the kernel's pair at
// position j. Written once and used by every loop, scalar or vectorised, so
// all compute the same bits (no FMA contraction: -ffp-contract=off).
inline void rotate_pair(double anchor_sin, double anchor_cos, double step_sin, double step_cos, double& sin_out,
                        double& cos_out) {
  sin_out = anchor_sin * step_cos + anchor_cos * step_sin;
  cos_out = anchor_cos * step_cos - anchor_sin * step_sin;
}

inline bool must_recompute(double sin_value, double cos_value) {
  return std::fabs(sin_value * cos_value) < recompute_below;
}

// The same test for a whole run in the hot loops, as the smallest magnitude
// of sin * cos seen, kept as bits: the bits of non-negative doubles order as
// their values do, and an unsigned integer minimum vectorises where a
// floating-point one (NaN, signed zeros) would not.
inline std::uint64_t product_magnitude_bits(double sin_value, double cos_value) {
  return std::bit_cast<std::uint64_t>(sin_value * cos_value) & ~(std::uint64_t{1} << 63);
}
inline bool any_must_recompute(std::uint64_t smallest_product_bits) {
  return smallest_product_bits < std::bit_cast<std::uint64_t>(recompute_below);
}

// The pair rows of the offsets j in [0, K): K kernel rows, computed once
// per set of frequencies (split_frequencies.hpp keeps it).
class RotationTable {
 public:
  explicit RotationTable(const TurnsView& turns);

  std::int64_t spacing() const { return spacing_; }
  const double* step(std::int64_t j) const { return pairs_.data() + j * 2 * padded_; }

 private:
  std::int64_t spacing_ = 1;
  std::int64_t padded_ = 0;
  // Up to 1 MiB, written once: in huge pages, as its small pages' faults cost
  // several times the kernel rows that fill it (page_buffer.hpp).
  std::vector<double, PageAllocator<double>> pairs_;
};

// One thread's anchor row, recomputed when a position moves to the next anchor.
class AnchorRow {
 public:
  explicit AnchorRow(const TurnsView& turns);

  // Makes this the row at anchor_position (a multiple of K).
  void move_to(std::int64_t anchor_position);
  const double* pairs() const { return pairs_.data(); }

 private:
  TurnsView turns_;
  std::int64_t position_ = -1;
  // Aligned to a cache line (page_buffer.hpp): the vector loops read it in
  // 64-byte loads, each split across two lines where malloc (which aligns to
  // 16 bytes) put the row 16 or 48 bytes off a line, which cost the bfloat16
  // table 6 to 10% of its CPU time; where it went depended on what the
  // process and the thread's arena had allocated before.
  std::vector<double, PageAllocator<double>> pairs_;
};

// The kernel's pair for frequency i at a position (the recomputation).
void kernel_pair(const TurnsView& turns, std::int64_t position, std::int64_t i, double& sin_out, double& cos_out);

// Whole pair rows as the narrow formats round them, for a caller that
// scatters them into its own layout (the rotary caches, rotary_fast.cpp):
// each pair rotated from the anchor by rotate_pair, or the kernel's where the
// rotated pair fails the check, the same values the additive tables round.
// One per thread; the rows may come in any order.
class RotatedPairRows {
 public:
  // Only the first `frequencies` pairs are checked: the padding (zero
  // frequencies, sin 0 exactly) would fail the check on every row.
  RotatedPairRows(const TurnsView& turns, const RotationTable& table, std::int64_t frequencies);

  // The pair row (sin_in / cos_in read it) at a position, 0 <= position <
  // 2^24; valid until the next call.
  const double* at(std::int64_t position);

  // What at() rotates, for a caller that rotates and stores in one pass
  // (rotary_rotated_fill.cpp): the anchor's pair row for a position (moved
  // there if needed) and the table's step row, or no step at an anchor
  // (j = 0), whose row is the anchor's own. Valid until the next call.
  struct Operands {
    const double* anchor = nullptr;
    const double* step = nullptr;
  };
  Operands operands(std::int64_t position);

 private:
  TurnsView turns_;
  const RotationTable& table_;
  std::int64_t frequencies_ = 0;
  AnchorRow anchor_;
  std::vector<double, PageAllocator<double>> pairs_;  // line-aligned, as AnchorRow's
};

}  // namespace pecheck
