#include "rotary_model_rows.hpp"

#include "float_angle_tier.hpp"
#include "pecheck/reference/nearest_rounding.hpp"
#include "rotary_entry.hpp"

namespace pecheck::reference {

namespace {

// The float-angle tier's products p inv_freq are exact for two factors of at
// most 26 significant bits (float_angles checks each product too).
constexpr int max_factor_precision = 26;

}  // namespace

bool float_angle_rows_apply(const std::optional<ComputationModel>& model, FormatId format, ExactValues exact) {
  return model && model->angle == FormatId::float32 && format_of(model->position).precision <= max_factor_precision &&
         format_of(model->inv_freq).precision <= max_factor_precision &&
         format_of(format).precision <= max_factor_precision && exact == ExactValues::for_format;
}

FloatAngleRows::FloatAngleRows(const RotaryConvention& convention, const ComputationModel& model, FormatId format,
                               ExactValues exact)
    : factor_(pecheck::round_to_format(rotary_derived(convention).attention_factor, format_of(model.angle))),
      tolerance_(exact_tolerance(exact, format)),
      position_format_(model.position) {
  const auto n = static_cast<std::size_t>(rotary_derived(convention).frequencies);
  RotaryEntryEvaluator source(convention, model);
  for (std::size_t i = 0; i < n; ++i) inv_freq_.push_back(source.model_inv_freq(static_cast<std::int64_t>(i)));
  angles_.resize(n);
  fits_.resize(n);
  ok_.resize(n);
}

bool FloatAngleRows::row(std::int64_t position, double* cos_values, double* sin_values) {
  const std::size_t n = inv_freq_.size();
  const double p = round_nearest(static_cast<double>(position), format_of(position_format_));
  const bool fit = float_angles(p, inv_freq_.data(), n, angles_.data(), fits_.data());
  // An angle that does not fit is 0 here, its values meaningless: the row is refused.
  const bool kept = float_angle_sin_cos(angles_.data(), n, factor_, tolerance_, cos_values, sin_values, ok_.data());
  return fit && kept;
}

}  // namespace pecheck::reference
