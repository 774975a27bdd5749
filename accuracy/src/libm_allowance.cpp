#include "pecheck/accuracy/libm_allowance.hpp"

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
  for (std::int64_t c = 0; c < cache_columns; ++c) frequency_of_column_.push_back(rotary_column_frequency(convention, c));
}

double LibmAllowance::bound(std::int64_t row, std::int64_t column, DoubleDouble) const {
  const auto cache_column = static_cast<std::size_t>(column) % frequency_of_column_.size();
  const auto frequency = static_cast<std::size_t>(frequency_of_column_[cache_column]);
  const double angle = static_cast<double>(first_position_ + row) * inv_freq_[frequency];
  const double angle_ulp = angle == 0.0 ? 0.0 : ulp_of(DoubleDouble{angle, 0.0}, format_of(angle_format_));
  return factor_ * (relative_ * angle + angle_ulp);
}

}  // namespace pecheck::accuracy
