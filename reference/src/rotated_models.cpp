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

// RN_format(a + b): the exact sum is hi + lo (TwoSum).
double sum(double a, double b, const Format& format) {
  const DoubleWord s = exact_sum(a, b);
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
  State(const RotaryConvention& c, FormatId act, const RotatedModel& m, const ComputationModel& angle_model)
      : model(m), activation(&format_of(act)), cache(c, FormatId::float32, angle_model), direct(c, act, angle_model) {}
};

RotatedModelEvaluator::RotatedModelEvaluator(const RotaryConvention& convention, FormatId activation,
                                             const RotatedModel& model, const ComputationModel& angle_model)
    : state_(std::make_unique<State>(convention, activation, model, angle_model)) {}

RotatedModelEvaluator::~RotatedModelEvaluator() = default;

double RotatedModelEvaluator::angle(std::int64_t position, std::int64_t frequency) {
  return state_->cache.angle(position, frequency);
}

RotatedPair RotatedModelEvaluator::rotate(std::int64_t position, std::int64_t frequency, double x_first,
                                          double x_second) {
  State& s = *state_;
  const Format& act = *s.activation;
  const Format& f32 = format_of(FormatId::float32);
  switch (s.model.kind) {
    case RotatedModelKind::float32_angle:
      return s.direct.rotate(position, frequency, x_first, x_second);
    case RotatedModelKind::hf_cast_cache: {
      const RotatedPair cs = s.cache.cos_sin(position, frequency, FormatId::float32);
      const double c = round_to_format(cs.first, act);
      const double n = round_to_format(cs.second, act);
      return {sum(product(x_first, c, act), -product(x_second, n, act), act),
              sum(product(x_second, c, act), product(x_first, n, act), act)};
    }
    case RotatedModelKind::float32_compute: {
      const RotatedPair cs = s.cache.cos_sin(position, frequency, FormatId::float32);
      const double a = round_to_format(x_first, f32);
      const double b = round_to_format(x_second, f32);
      const double first = sum(product(a, cs.first, f32), -product(b, cs.second, f32), f32);
      const double second = sum(product(a, cs.second, f32), product(b, cs.first, f32), f32);
      return {round_to_format(first, act), round_to_format(second, act)};
    }
  }
  return {};
}

double RotatedLibmAllowance::bound(double angle, double x_first, double x_second, double output) const {
  const double weight = factor * (std::fabs(x_first) + std::fabs(x_second));
  const double t = std::fabs(angle);
  const double angle_ulp = t == 0.0 ? 0.0 : ulp_of(DoubleDouble{t, 0.0}, format_of(angle_format));
  double b = weight * (inv_freq_relative * t + angle_ulp + trig_ulps * 0x1p-24);
  if (cast_cache) {
    const Format& act = format_of(activation);
    b += weight * std::ldexp(1.0, 1 - act.precision);
    b += output == 0.0 ? 0.0 : ulp_of(DoubleDouble{std::fabs(output), 0.0}, act);
  }
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
