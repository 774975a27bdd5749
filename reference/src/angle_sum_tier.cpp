#include "angle_sum_tier.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>

#include "scaled_enclosure.hpp"

namespace pecheck::reference {

namespace {

constexpr double infinite = std::numeric_limits<double>::infinity();
constexpr double smallest_word = 0x1p-400;

// The kernel's conditions on a double-word (angle_sum_kernel.hpp): zero, or
// a leading word of at least 2^-400 with a low word of at most 2^-53 of it
// that is itself zero or at least 2^-400 (so no product of two words, nor its
// residual, comes near the underflow threshold).
bool usable(const DoubleWord& w) {
  if (w.hi == 0.0) return w.lo == 0.0;
  const double hi = std::fabs(w.hi);
  const double lo = std::fabs(w.lo);
  return std::isfinite(hi) && hi >= smallest_word && (lo == 0.0 || lo >= smallest_word) && lo <= 0x1p-53 * hi;
}

}  // namespace

void AngleSumTier::Words::resize(std::size_t n) {
  for (std::vector<double>* v : {&cos_hi, &cos_lo, &sin_hi, &sin_lo, &error}) v->resize(n);
}

AngleEnclosures AngleSumTier::Words::at(std::size_t first) const {
  return {cos_hi.data() + first, cos_lo.data() + first, sin_hi.data() + first, sin_lo.data() + first,
          error.data() + first};
}

AngleSumTier::AngleSumTier(const std::vector<StepsFrequency>& frequencies, double factor, const NarrowFormat& format,
                           double tolerance, bool decide_rounding)
    : frequencies_(frequencies),
      columns_(frequencies),
      factor_(factor),
      format_(format),
      tolerance_(tolerance),
      decide_rounding_(decide_rounding),
      n_(frequencies.size()),
      offset_ready_(static_cast<std::size_t>(rows_per_anchor)) {
  anchor_.resize(n_);
  anchor_magnitude_.resize(n_);
  offsets_.resize(n_ * static_cast<std::size_t>(rows_per_anchor));
}

// The anchor's cos and sin, the factor folded in (scale_enclosure); an entry
// the first step does not apply to (a frequency that never rotates) gets an
// infinite error, which the kernel leaves undecided.
void AngleSumTier::prepare_anchor(std::int64_t anchor) {
  anchor_position_ = anchor;
  anchor_ready_ = true;
  const bool whole_row = anchor != 0 && first_step_applies_to_row(anchor, columns_);
  if (whole_row) first_step_row(anchor, columns_, enclosures_);
  for (std::size_t i = 0; i < n_; ++i) {
    DoubleWord c{1.0, 0.0}, s{0.0, 0.0};  // position 0: cos 1 and sin 0 exactly
    double c_error = 0.0, s_error = 0.0;
    bool applies = anchor == 0;
    if (whole_row) {
      c = {enclosures_.cos_hi[i], enclosures_.cos_lo[i]};
      s = {enclosures_.sin_hi[i], enclosures_.sin_lo[i]};
      c_error = enclosures_.cos_error[i];
      s_error = enclosures_.sin_error[i];
      applies = true;
    } else if (anchor != 0 && first_step_applies(anchor, frequencies_[i])) {
      const SinCosEnclosure e = first_step_sin_cos(anchor, frequencies_[i]);
      c = e.cos_value;
      s = e.sin_value;
      c_error = e.cos_error;
      s_error = e.sin_error;
      applies = true;
    }
    scale_enclosure(factor_, c, c_error);
    scale_enclosure(factor_, s, s_error);
    applies &= usable(c) && usable(s);
    anchor_.cos_hi[i] = applies ? c.hi : 0.0;
    anchor_.cos_lo[i] = applies ? c.lo : 0.0;
    anchor_.sin_hi[i] = applies ? s.hi : 0.0;
    anchor_.sin_lo[i] = applies ? s.lo : 0.0;
    anchor_.error[i] = applies ? std::max(c_error, s_error) : infinite;
    // Bounds |hi| + |lo| <= (1 + 2^-53) |hi| for both, rounding included.
    anchor_magnitude_[i] = applies ? std::max(std::fabs(c.hi), std::fabs(s.hi)) * (1.0 + 0x1p-50) : 1.0;
  }
}

// Offset k's cos and sin without the factor (k = 0: 1 and 0 exactly), a
// whole row of them by the first step's vector loop where it applies (the
// same bits as entry by entry, first_step.hpp), as the anchors are.
void AngleSumTier::prepare_offset(std::int64_t k) {
  offset_ready_[static_cast<std::size_t>(k)] = 1;
  const std::size_t first = static_cast<std::size_t>(k) * n_;
  const bool whole_row = k != 0 && first_step_applies_to_row(k, columns_);
  if (whole_row) first_step_row(k, columns_, enclosures_);
  for (std::size_t i = 0; i < n_; ++i) {
    DoubleWord c{1.0, 0.0}, s{0.0, 0.0};
    double error = 0.0;
    bool applies = k == 0;
    if (whole_row) {
      c = {enclosures_.cos_hi[i], enclosures_.cos_lo[i]};
      s = {enclosures_.sin_hi[i], enclosures_.sin_lo[i]};
      error = std::max(enclosures_.cos_error[i], enclosures_.sin_error[i]);
      applies = true;
    } else if (k != 0 && first_step_applies(k, frequencies_[i])) {
      const SinCosEnclosure e = first_step_sin_cos(k, frequencies_[i]);
      c = e.cos_value;
      s = e.sin_value;
      error = std::max(e.cos_error, e.sin_error);
      applies = true;
    }
    applies &= std::fabs(c.hi) <= offset_magnitude && std::fabs(s.hi) <= offset_magnitude;
    applies &= usable(c) && usable(s);
    offsets_.cos_hi[first + i] = applies ? c.hi : 0.0;
    offsets_.cos_lo[first + i] = applies ? c.lo : 0.0;
    offsets_.sin_hi[first + i] = applies ? s.hi : 0.0;
    offsets_.sin_lo[first + i] = applies ? s.lo : 0.0;
    offsets_.error[first + i] = applies ? error : infinite;
  }
}

std::size_t AngleSumTier::settle(std::int64_t position, RowDecisions& out) {
  // The anchor at or below the position (floor, also for negative ones).
  const std::int64_t k = ((position % rows_per_anchor) + rows_per_anchor) % rows_per_anchor;
  const std::int64_t anchor = position - k;
  if (!anchor_ready_ || anchor != anchor_position_) prepare_anchor(anchor);
  if (!offset_ready_[static_cast<std::size_t>(k)]) prepare_offset(k);
  out.resize(n_);
  out.plain = true;
  const AngleEnclosures offset = offsets_.at(static_cast<std::size_t>(k) * n_);
  const AngleSumOutput to{out.cos_hi.data(), out.sin_hi.data(), out.cos_rounded.data(), out.sin_rounded.data(),
                          out.cos_done.data()};
  const std::size_t settled =
      decide_rounding_
          ? angle_sum_entries(n_, anchor_.at(0), anchor_magnitude_.data(), offset, format_, tolerance_, to)
          : angle_sum_exact_entries(n_, anchor_.at(0), anchor_magnitude_.data(), offset, tolerance_, to);
  // One verdict a pair: sin's flags are cos's.
  std::memcpy(out.sin_done.data(), out.cos_done.data(), n_);
  return n_ - settled;
}

}  // namespace pecheck::reference
