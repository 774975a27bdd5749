#include "pecheck/reference/rotated_models.hpp"

#include <cmath>

#include "double_word.hpp"
#include "pecheck/ulp.hpp"
#include "rotated_rounding.hpp"

namespace pecheck::reference {

namespace {

// RN_format(a b) for values of formats of at most 26 bits (the product is
// exact in double), or of float64 (the double product is the rounding).
double product(double a, double b, const Format& format) {
  const DoubleWord p = exact_product(a, b);
  return round_word(p.hi, p.lo, format);
}

// RN_format(a + b): the exact sum is hi + lo (TwoSum), kept in `exact`.
double sum(double a, double b, const Format& format, DoubleDouble* exact = nullptr) {
  const DoubleWord s = exact_sum(a, b);
  if (exact != nullptr) *exact = {s.hi, s.lo};
  return round_word(s.hi, s.lo, format);
}

}  // namespace

const std::vector<RotatedModel>& rotated_models() {
  static const std::vector<RotatedModel> models = {
      {RotatedModelKind::hf_cast_cache, "hf-cast-cache",
       "transformers: the float32 cos/sin cache cast to the activation dtype, then q*cos + rotate_half(q)*sin with "
       "each product and the sum rounded in that dtype"},
      {RotatedModelKind::float32_compute, "float32-compute",
       "Meta's complex form and torchtune: the rotation computed in float32 from the float32 cache, rounded once to "
       "the activation dtype"},
      {RotatedModelKind::float32_angle, "float32-angle",
       "a float32 angle with sin and cos on the fly: the exact rotation by the float32 angle, rounded once"},
  };
  return models;
}

std::optional<RotatedModel> find_rotated_model(std::string_view name) {
  for (const RotatedModel& m : rotated_models()) {
    if (m.name == name) return m;
  }
  return std::nullopt;
}

struct RotatedModelEvaluator::State {
  RotatedModel model;
  const Format* activation;
  RotatedOracle cache;   // the angle model's cache entries in float32 (and its angle)
  RotatedOracle direct;  // float32-angle: the rotation by the binary angle, rounded to the activation dtype
  // The float32 cache entries of the last position, per frequency (a
  // subject's rows at one position come together: every head), and their
  // cast to the activation dtype.
  std::vector<std::int64_t> stamp;
  std::vector<RotatedPair> entries, cast;
  State(const RotaryConvention& c, FormatId act, const RotatedModel& m, const ComputationModel& angle_model)
      : model(m),
        activation(&format_of(act)),
        cache(c, FormatId::float32, angle_model),
        direct(c, act, angle_model),
        stamp(static_cast<std::size_t>(rotary_derived(c).frequencies), -1),
        entries(stamp.size()),
        cast(stamp.size()) {}

  void fill(std::int64_t position, std::int64_t frequency) {
    if (frequency < 0 || frequency >= static_cast<std::int64_t>(stamp.size())) {
      cache.cos_sin(position, frequency, FormatId::float32);  // throws ConventionError naming the frequency
    }
    const auto k = static_cast<std::size_t>(frequency);
    if (stamp[k] == position) return;
    entries[k] = cache.cos_sin(position, frequency, FormatId::float32);
    cast[k] = {round_nearest(entries[k].first, *activation), round_nearest(entries[k].second, *activation)};
    stamp[k] = position;
  }
  RotatedPair cache_entries(std::int64_t position, std::int64_t frequency) {
    fill(position, frequency);
    return entries[static_cast<std::size_t>(frequency)];
  }
  RotatedPair cast_cache(std::int64_t position, std::int64_t frequency) {
    fill(position, frequency);
    return cast[static_cast<std::size_t>(frequency)];
  }
};

RotatedModelEvaluator::RotatedModelEvaluator(const RotaryConvention& convention, FormatId activation,
                                             const RotatedModel& model, const ComputationModel& angle_model)
    : state_(std::make_unique<State>(convention, activation, model, angle_model)) {}

RotatedModelEvaluator::~RotatedModelEvaluator() = default;

double RotatedModelEvaluator::angle(std::int64_t position, std::int64_t frequency) {
  return state_->cache.angle(position, frequency);
}

RotatedPair RotatedModelEvaluator::rotate(std::int64_t position, std::int64_t frequency, double x_first,
                                          double x_second, RotatedExact* before_rounding) {
  State& s = *state_;
  const Format& act = *s.activation;
  const Format& f32 = format_of(FormatId::float32);
  DoubleDouble* first_exact = before_rounding != nullptr ? &before_rounding->first : nullptr;
  DoubleDouble* second_exact = before_rounding != nullptr ? &before_rounding->second : nullptr;
  switch (s.model.kind) {
    case RotatedModelKind::float32_angle:
      return s.direct.rotate(position, frequency, x_first, x_second, before_rounding);
    case RotatedModelKind::hf_cast_cache: {
      const RotatedPair cs = s.cast_cache(position, frequency);
      return {sum(product(x_first, cs.first, act), -product(x_second, cs.second, act), act, first_exact),
              sum(product(x_second, cs.first, act), product(x_first, cs.second, act), act, second_exact)};
    }
    case RotatedModelKind::float32_compute: {
      const RotatedPair cs = s.cache_entries(position, frequency);
      const double a = round_nearest(x_first, f32);
      const double b = round_nearest(x_second, f32);
      const double first = sum(product(a, cs.first, f32), -product(b, cs.second, f32), f32);
      const double second = sum(product(a, cs.second, f32), product(b, cs.first, f32), f32);
      if (before_rounding != nullptr) *before_rounding = {{first, 0.0}, {second, 0.0}};
      return {round_nearest(first, act), round_nearest(second, act)};
    }
  }
  return {};
}

double RotatedLibmAllowance::bound(double angle, double x_first, double x_second, double output) const {
  const double weight = factor * (std::fabs(x_first) + std::fabs(x_second));
  const double t = std::fabs(angle);
  const double angle_ulp = t == 0.0 ? 0.0 : ulp_of(DoubleDouble{t, 0.0}, format_of(angle_format));
  double b = weight * (inv_freq_relative * t + angle_ulp + trig_ulps * 0x1p-24);
  const Format& act = format_of(activation);
  if (cast_cache) b += weight * std::ldexp(1.0, 1 - act.precision);
  b += output == 0.0 ? 0.0 : ulp_of(DoubleDouble{std::fabs(output), 0.0}, act);
  return b;
}

RotatedLibmAllowance rotated_libm_allowance(const RotatedModel& model, const ComputationModel& angle_model,
                                            FormatId activation, double attention_factor) {
  RotatedLibmAllowance a;
  a.inv_freq_relative = libm_inv_freq_allowance(angle_model);
  a.angle_format = angle_model.angle;
  a.activation = activation;
  a.cast_cache = model.kind == RotatedModelKind::hf_cast_cache;
  a.factor = attention_factor;
  return a;
}

}  // namespace pecheck::reference
