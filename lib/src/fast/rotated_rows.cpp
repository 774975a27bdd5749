#include "rotated_rows.hpp"

#include <algorithm>
#include <cstring>

#include "sincos_turns.hpp"

// Why a rotated anchor keeps every float32 entry within 1 ulp
// ===========================================================
//
// u = 2^-53. For a frequency f in turns and an integer position p, let
// x_p = (s_p, c_p) = (sin 2 pi p f, cos 2 pi p f), a unit vector. With
// p = p0 + j, the angle addition formulas say x_p = R_j x_p0, where
// R_j = [[c_j, s_j], [-s_j, c_j]] acting on (s, c) is a rotation: it keeps
// Euclidean lengths (c_j^2 + s_j^2 = 1).
//
// 1. The kernel's pairs. sincos_turns returns each value y of an entry v with
//    |y - v| <= 2^-52 |v| + 2 pi 2^-78.5 (sincos_turns.cpp, step 4), so the
//    error vector of one of its pairs has length at most
//      eps = 2^-52 |x| + sqrt(2) 2^-75.85 = 2^-52 + 2^-75.35.
//    This holds for the anchor X0 (position p0) and for the step
//    (S_j, C_j) (position j), which rotate_pair reads from the table.
//
// 2. The rotation in double. X = fl(R^ X0), R^ the matrix of the computed step.
//      X - x_p = R_j (X0 - x_p0) + (R^ - R_j) X0 + xi.
//    - R_j keeps the length of the anchor's error: at most eps.
//    - R^ - R_j = [[dc, ds], [-ds, dc]], (ds, dc) the step's error vector; its
//      norm is sqrt(ds^2 + dc^2) <= eps, and |X0| <= 1 + eps: at most
//      eps (1 + eps).
//    - xi, the rounding: each component is fl(fl(a) +- fl(b)) for exact
//      products a, b of computed values, off by at most (2u + u^2)(|a| + |b|),
//      and |a| + |b| <= |X0| |(C_j, S_j)| <= (1 + eps)^2 (Cauchy-Schwarz):
//      |xi| <= sqrt(2) (2u + u^2)(1 + eps)^2 <= 2^-51.5 (1 + 2^-50).
//    So E = |X - x_p| <= 2 eps (1 + eps) + 2^-51.5 (1 + 2^-50)
//                     <= 2^-51 + 2^-51.5 + 2^-74 <= 2^-50.2,
//    an absolute bound on each of the two values, whatever j is: the error
//    does not grow along the rows, since every row is one rotation away from
//    its anchor.
//
// 3. The check. A rotated pair (S, C) is kept only if |fl(S C)| >= t = 2^-14.
//    Then |S| >= t / ((1 + u)(1 + E)) (as |C| <= 1 + E), and the exact value
//    |s_p| >= |S| - E >= t (1 - 2^-35); the same for C. A pair that fails the
//    check is replaced by the kernel's pair at p, as is the anchor row itself.
//
// 4. The formats. A format of precision P (float32 24, float16 11, bfloat16
//    8) has an ulp at v larger than 2^-P |v|, so rounding a kept value once
//    errs by at most
//      0.5 + 2^P E / |v| <= 0.5 + 2^(P - 50.2 + 14) (1 + 2^-35) ulp:
//    float32 0.5 + 2^-12.2 (0.50021), float16 0.5 + 2^-25.2, bfloat16
//    0.5 + 2^-28.2 (|v| >= 2^-14 is a normal number in all three). A value
//    from the kernel keeps the bound of sincos_turns.cpp, step 5:
//    0.5 + 2^P (2^-52 + 2^-77.9 / rho). So every float32 entry is within
//      0.5 + max(2^-12.2, 2^-28 + 2^-53.9 / rho) ulp,
//    within 1 ulp whenever rho >= 2^-52.9, as for the kernel alone. float16
//    and bfloat16 are rounded once from the same double, and so are correctly
//    rounded unless the exact value lies within E of a rounding boundary.
//
// The cost: per pair of entries four products and two sums, against the
// kernel's polynomial and exact reduction; a pair fails the check with
// probability about 4t/pi per frequency and row (2^-13.7), so recomputation
// is rare. Anchors cost one kernel row every K rows, the table K kernel rows
// once per set of frequencies.

namespace pecheck {

std::int64_t anchor_spacing(std::int64_t padded_frequencies) {
  // One kernel row per K rows for the anchors, K kernel rows once for the
  // table: K = 128 makes the anchors a few percent of a table's work. The
  // table holds 2 K padded doubles, 16 K padded bytes: K padded <= 2^16
  // keeps it within 1 MiB.
  constexpr std::int64_t table_doubles = std::int64_t{1} << 16;
  return std::clamp<std::int64_t>(table_doubles / std::max<std::int64_t>(padded_frequencies, 1), 8, 128);
}

void kernel_pair_row(const TurnsView& turns, std::int64_t position, double* pair_row) {
  static_assert(pair_block == sincos_lanes);
  for (std::int64_t group = 0; group < turns.padded; group += pair_block) {
    double* block = pair_row + 2 * group;
    sincos_turns(position, turns.f1 + group, turns.f2 + group, turns.f3 + group, pair_block, block,
                 block + pair_block);
  }
}

RotationTable::RotationTable(const TurnsView& turns)
    : spacing_(anchor_spacing(turns.padded)), padded_(turns.padded) {
  pairs_.assign(static_cast<std::size_t>(spacing_ * 2 * padded_), 0.0);
  for (std::int64_t j = 0; j < spacing_; ++j) kernel_pair_row(turns, j, pairs_.data() + j * 2 * padded_);
}

AnchorRow::AnchorRow(const TurnsView& turns) : turns_(turns), pairs_(static_cast<std::size_t>(2 * turns.padded), 0.0) {}

void AnchorRow::move_to(std::int64_t anchor_position) {
  if (anchor_position == position_) return;
  kernel_pair_row(turns_, anchor_position, pairs_.data());
  position_ = anchor_position;
}

void kernel_pair(const TurnsView& turns, std::int64_t position, std::int64_t i, double& sin_out, double& cos_out) {
  // The kernel works on whole groups of lanes; compute the group holding i.
  const std::int64_t group = i / sincos_lanes * sincos_lanes;
  double sin_values[sincos_lanes];
  double cos_values[sincos_lanes];
  sincos_turns(position, turns.f1 + group, turns.f2 + group, turns.f3 + group, sincos_lanes, sin_values,
               cos_values);
  sin_out = sin_values[i - group];
  cos_out = cos_values[i - group];
}

RotatedPairRows::RotatedPairRows(const TurnsView& turns, const RotationTable& table, std::int64_t frequencies)
    : turns_(turns),
      table_(table),
      frequencies_(frequencies),
      anchor_(turns),
      pairs_(static_cast<std::size_t>(2 * turns.padded), 0.0) {}

RotatedPairRows::Operands RotatedPairRows::operands(std::int64_t position) {
  const std::int64_t j = position % table_.spacing();
  anchor_.move_to(position - j);
  // At j = 0 the anchor is the kernel's own row (as RowFiller in narrow_fill.cpp).
  return {anchor_.pairs(), j == 0 ? nullptr : table_.step(j)};
}

const double* RotatedPairRows::at(std::int64_t position) {
  const Operands rotated = operands(position);
  if (rotated.step == nullptr) return rotated.anchor;
  const double* __restrict anchor = rotated.anchor;
  const double* __restrict step = rotated.step;
  double* __restrict out = pairs_.data();
  // One block of pair_block lanes per step, in GCC's vector extension: the
  // plain loop (blocks by lanes) was vectorised across blocks with a
  // permute per load and spills, about two thirds of a rotary cache's time
  // (64 pairs a row, where the additive tables' 512 hid it). The same
  // operations in the same order as rotate_pair and product_magnitude_bits
  // (no contraction: -ffp-contract=off), so the same bits.
  using Lanes = double __attribute__((vector_size(pair_block * sizeof(double))));
  using LaneBits = std::uint64_t __attribute__((vector_size(pair_block * sizeof(double))));
  // Loads through an out parameter: a lambda returning a 64-byte vector
  // changes the ABI in a build without AVX-512 (GCC's -Wpsabi).
  const auto load = [](Lanes& v, const double* from) { std::memcpy(&v, from, sizeof v); };
  LaneBits least_lanes = ~LaneBits{};
  const LaneBits magnitude = ~LaneBits{} >> 1;
  for (std::int64_t block = 0; block < 2 * turns_.padded; block += 2 * pair_block) {
    Lanes anchor_sin, anchor_cos, step_sin, step_cos;
    load(anchor_sin, anchor + block);
    load(anchor_cos, anchor + block + pair_block);
    load(step_sin, step + block);
    load(step_cos, step + block + pair_block);
    const Lanes s = anchor_sin * step_cos + anchor_cos * step_sin;
    const Lanes c = anchor_cos * step_cos - anchor_sin * step_sin;
    std::memcpy(out + block, &s, sizeof s);
    std::memcpy(out + block + pair_block, &c, sizeof c);
    const Lanes product = s * c;
    LaneBits bits;
    std::memcpy(&bits, &product, sizeof bits);
    bits &= magnitude;
    least_lanes = bits < least_lanes ? bits : least_lanes;
  }
  std::uint64_t least = ~std::uint64_t{0};
  for (std::int64_t l = 0; l < pair_block; ++l) least = std::min(least, static_cast<std::uint64_t>(least_lanes[l]));
  // Rare (about 2^-13.7 per pair and row) except with padding, whose lanes
  // always fail: then this scan runs on every row, and recomputes nothing there.
  if (any_must_recompute(least)) {
    for (std::int64_t i = 0; i < frequencies_; ++i) {
      const std::int64_t s = i / pair_block * 2 * pair_block + i % pair_block;
      if (must_recompute(out[s], out[s + pair_block])) kernel_pair(turns_, position, i, out[s], out[s + pair_block]);
    }
  }
  return out;
}

}  // namespace pecheck
