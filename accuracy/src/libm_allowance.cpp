#include "pecheck/accuracy/libm_allowance.hpp"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <memory>
#include <utility>
#include <vector>

#include "accumulator_kernels.hpp"
#include "pecheck/reference/rotary_reference.hpp"
#include "pecheck/ulp.hpp"

namespace pecheck::accuracy {

LibmAllowance::LibmAllowance(const RotaryConvention& convention, const ComputationModel& model,
                             std::int64_t first_position, std::int64_t cache_columns)
    : factor_(rotary_derived(convention).attention_factor),
      relative_(libm_inv_freq_allowance(model)),
      angle_format_(model.angle),
      first_position_(first_position) {
  for (std::int64_t i = 0; i < rotary_derived(convention).frequencies; ++i) {
    inv_freq_.push_back(reference::rotary_model_inv_freq(convention, i, model));
  }
  for (std::int64_t c = 0; c < cache_columns; ++c) {
    frequency_of_column_.push_back(rotary_column_frequency(convention, c));
    inv_freq_of_column_.push_back(inv_freq_[static_cast<std::size_t>(frequency_of_column_.back())]);
  }
  for (int table = 0; table < 2; ++table) {
    inv_freq_of_row_column_.insert(inv_freq_of_row_column_.end(), inv_freq_of_column_.begin(),
                                   inv_freq_of_column_.end());
  }
  for (const double inv : inv_freq_) {
    smallest_inv_freq_ = std::min(smallest_inv_freq_, inv);
    largest_inv_freq_ = std::max(largest_inv_freq_, inv);
  }
}

double LibmAllowance::bound(std::int64_t row, std::int64_t column, DoubleDouble) const {
  const auto cache_column = static_cast<std::size_t>(column) % frequency_of_column_.size();
  const auto frequency = static_cast<std::size_t>(frequency_of_column_[cache_column]);
  const double angle = static_cast<double>(first_position_ + row) * inv_freq_[frequency];
  const double angle_ulp = angle == 0.0 ? 0.0 : ulp_of(DoubleDouble{angle, 0.0}, format_of(angle_format_));
  return factor_ * (relative_ * angle + angle_ulp);
}

}  // namespace pecheck::accuracy

namespace pecheck::accuracy {

namespace {

// A row's given columns as the kernel reads them: each entry's inv_freq, in
// the entries' order, whose values repeat every `repeat` entries (the
// kernel computes the first repeat's bounds and copies them on).
class LibmColumnsPlan final : public ColumnsPlan {
 public:
  LibmColumnsPlan(const Allowance& allowance, std::span<const std::int64_t> column, std::vector<double> inv_freq)
      : ColumnsPlan(allowance, column), inv_freq_(std::move(inv_freq)), repeat_(inv_freq_.size()) {
    // The shortest repeat: entry e's inv_freq the same bits as entry e - m's
    // for every e from m on (the last repetition may be cut short).
    for (std::size_t m = 1; m < inv_freq_.size(); ++m) {
      bool repeats = true;
      for (std::size_t e = m; e < inv_freq_.size() && repeats; ++e) {
        repeats = std::bit_cast<std::uint64_t>(inv_freq_[e]) == std::bit_cast<std::uint64_t>(inv_freq_[e - m]);
      }
      if (repeats) {
        repeat_ = m;
        break;
      }
    }
  }
  const std::vector<double>& inv_freq() const { return inv_freq_; }
  std::size_t repeat() const { return repeat_; }

 private:
  std::vector<double> inv_freq_;
  std::size_t repeat_;
};

}  // namespace

std::unique_ptr<const ColumnsPlan> LibmAllowance::plan_columns(std::span<const std::int64_t> column) const {
  std::vector<double> inv_freq;
  inv_freq.reserve(column.size());
  for (const std::int64_t c : column) {
    if (c < 0 || static_cast<std::size_t>(c) >= inv_freq_of_row_column_.size()) return nullptr;
    inv_freq.push_back(inv_freq_of_row_column_[static_cast<std::size_t>(c)]);
  }
  return std::make_unique<const LibmColumnsPlan>(*this, column, std::move(inv_freq));
}

void LibmAllowance::row_bounds(std::int64_t row, std::span<const std::int64_t> column, const ColumnsPlan* plan,
                               std::span<const double> exact, std::span<double> out) const {
  const double p = static_cast<double>(first_position_ + row);
  const std::size_t columns = inv_freq_of_column_.size();
  // ulp_of's plain-double path, lane by lane: the angle's binade read from its
  // bits, floored at the format's smallest normal binade. Its result is a
  // normal double when that quantum is at least -1022 and the angle a finite
  // normal double; otherwise (never for a position below 2^31 and the
  // presets' frequencies, but checked) the row goes through bound().
  const Format& format = format_of(angle_format_);
  const int shift = format.precision - 1;
  const std::int64_t min_exponent = format.min_exponent;
  // Rounding is monotonic: every angle of the row lies between the products
  // with the smallest and the largest inv_freq.
  const bool plain = format.min_exponent - shift >= -1022 &&
                     (p == 0.0 || (std::isnormal(p * smallest_inv_freq_) && std::isnormal(p * largest_inv_freq_)));
  if (!plain) {
    Allowance::row_bounds(row, column, plan, exact, out);
    return;
  }
  LibmRowBounds bounds{p, factor_, relative_, inv_freq_of_column_.data(), columns, nullptr, min_exponent, shift};
  if (plan != nullptr && plan->made_for(*this, column) && out.size() == column.size()) {
    // This allowance's plans are LibmColumnsPlan: the entries' inv_freq,
    // repeating like a cache row's columns.
    const auto& planned = static_cast<const LibmColumnsPlan&>(*plan);
    bounds.inv_freq_of_column = planned.inv_freq().data();
    bounds.columns = planned.repeat();
  } else if (!column.empty()) {  // each entry's column among a row's, cos's then sin's
    bounds.inv_freq_of_column = inv_freq_of_row_column_.data();
    bounds.columns = inv_freq_of_row_column_.size();
    bounds.column = column.data();
    bounds.period = inv_freq_of_column_.size();  // sin's columns repeat cos's inv_freq
  }
  // Given columns past a row's (not the comparison's) go through bound().
  if (!accumulator_kernels().libm_row_bounds(bounds, out.data(), out.size())) {
    Allowance::row_bounds(row, column, plan, exact, out);
  }
}

}  // namespace pecheck::accuracy
