// The angle-sum tier of the rotary oracle, for the exact encoding: its
// angles are p F_i, so row p0 + k is row p0 rotated by row k. The double-word
// first step (first_step.hpp) encloses cos and sin at one anchor row p0 in
// every rows_per_anchor rows and at the offsets k = 0 .. rows_per_anchor - 1
// (once), and every row between is their complex product with its bound
// (angle_sum_kernel.hpp): measured at under half the double tier's time per
// row without the rounding decisions, about two thirds with them (the two
// narrow_rounding calls are then most of its work). What it does not settle
// goes to the double tier and below, as before.
//
// It shares no code with lib's fast path, which rotates rows too: the oracle
// and the subject it checks must not share a bug.
#pragma once

#include <cstdint>
#include <vector>

#include "angle_sum_kernel.hpp"
#include "double_tier.hpp"
#include "first_step.hpp"
#include "row_decisions.hpp"
#include "steps_frequency.hpp"

namespace pecheck::reference {

class AngleSumTier {
 public:
  // Rows share an anchor in blocks of this many (positions p0 = 64 j): the
  // anchor's first step, spread over 64 rows, costs about a row's products.
  static constexpr std::int64_t rows_per_anchor = 64;

  // frequencies: the exact encoding's F_i (rotary_tier_frequencies), which
  // must outlive this; factor: the attention factor (an exact double); the
  // rounding to `format` (unless decide_rounding is false: then an entry is
  // settled by its exact values alone) and exact values within `tolerance`
  // (relative).
  AngleSumTier(const std::vector<StepsFrequency>& frequencies, double factor, const NarrowFormat& format,
               double tolerance, bool decide_rounding = true);

  // Row `position` into `out` (plain doubles): entry i settled when
  // out.cos_done[i] (= out.sin_done[i]). Returns how many entries it left.
  std::size_t settle(std::int64_t position, RowDecisions& out);

 private:
  // Double-word cos and sin per frequency with one error each, as the
  // kernel reads them (AngleEnclosures).
  struct Words {
    std::vector<double> cos_hi, cos_lo, sin_hi, sin_lo, error;
    void resize(std::size_t n);
    AngleEnclosures at(std::size_t first) const;
  };

  void prepare_anchor(std::int64_t anchor);
  void prepare_offset(std::int64_t k);

  const std::vector<StepsFrequency>& frequencies_;
  StepsFrequencies columns_;  // frequencies_ column by column
  double factor_;
  NarrowFormat format_;
  double tolerance_;
  bool decide_rounding_;
  std::size_t n_;
  Words anchor_;
  std::vector<double> anchor_magnitude_;
  std::int64_t anchor_position_ = 0;
  bool anchor_ready_ = false;
  Words offsets_;  // offset k's entries at k n_ .. k n_ + n_ - 1
  std::vector<unsigned char> offset_ready_;
  RowEnclosures enclosures_;  // the anchor row's first step
};

}  // namespace pecheck::reference
