#include "row_tiers.hpp"

#include "enclosure_decision.hpp"

namespace pecheck::reference {

namespace {

// The double tier needs half a spacing of the format to hold every double
// spacing near a value (narrow_rounding's exactness argument).
constexpr int double_tier_max_precision = 26;

// The double-word tier's decisions for a row: the rounding by its enclosure
// (when DecideRounding), the exact value where the enclosure is within
// `tolerance` of it (relative, within_relative); without branches, so the
// loop vectorises.
template <bool DecideRounding>
void decide_row(const RowEnclosures& row, const Format& format_in, double tolerance, RowDecisions& out) {
  const Format format = format_in;  // a local copy: its fields are then loop invariants
  const std::size_t count = row.sin_hi.size();
  out.resize(count);
  out.plain = false;
  const double* __restrict sin_hi = row.sin_hi.data();
  const double* __restrict sin_lo = row.sin_lo.data();
  const double* __restrict sin_error = row.sin_error.data();
  const double* __restrict cos_hi = row.cos_hi.data();
  const double* __restrict cos_lo = row.cos_lo.data();
  const double* __restrict cos_error = row.cos_error.data();
  double* __restrict sin_rounded = out.sin_rounded.data();
  double* __restrict cos_rounded = out.cos_rounded.data();
  double* __restrict sin_exact_hi = out.sin_hi.data();
  double* __restrict sin_exact_lo = out.sin_lo.data();
  double* __restrict cos_exact_hi = out.cos_hi.data();
  double* __restrict cos_exact_lo = out.cos_lo.data();
  unsigned char* __restrict sin_done = out.sin_done.data();
  unsigned char* __restrict cos_done = out.cos_done.data();
#pragma GCC ivdep
  for (std::size_t i = 0; i < count; ++i) {
    NonzeroRounding s{sin_hi[i], true};
    NonzeroRounding c{cos_hi[i], true};
    if constexpr (DecideRounding) {
      s = nonzero_rounding(sin_hi[i], sin_lo[i], sin_error[i], format);
      c = nonzero_rounding(cos_hi[i], cos_lo[i], cos_error[i], format);
    }
    sin_rounded[i] = s.value;
    cos_rounded[i] = c.value;
    sin_exact_hi[i] = sin_hi[i];
    sin_exact_lo[i] = sin_lo[i];
    cos_exact_hi[i] = cos_hi[i];
    cos_exact_lo[i] = cos_lo[i];
    sin_done[i] = s.decided & within_relative(sin_hi[i], sin_error[i], tolerance);
    cos_done[i] = c.decided & within_relative(cos_hi[i], cos_error[i], tolerance);
  }
}

}  // namespace

RowTiers::RowTiers(const Format& format, ExactValues exact, RoundedValues rounded)
    : format_(format),
      double_tier_(format.precision <= double_tier_max_precision && exact != ExactValues::full),
      decide_rounding_(rounded == RoundedValues::decided),
      tolerance_(exact_tolerance(exact, format.id)) {
  if (double_tier_) narrow_ = narrow_format(format);
}

bool RowTiers::settle(EntryEvaluator& evaluator, std::int64_t position, RowDecisions& out) {
  const StepsFrequencies* frequencies = evaluator.row_frequencies(position);
  if (frequencies == nullptr) return false;
  if (double_tier_) {
    double_tier_row(position, *frequencies, narrow_, tolerance_, decide_rounding_, out);
  } else {
    first_step_row(position, *frequencies, enclosures_);
    if (decide_rounding_) {
      decide_row<true>(enclosures_, format_, tolerance_, out);
    } else {
      decide_row<false>(enclosures_, format_, tolerance_, out);
    }
  }
  return true;
}

}  // namespace pecheck::reference
