// The rotary frequency rule, written once: inv_freq_i of a convention after
// its scaling rule, as the sequence of operations transformers'
// modeling_rope_utils.py performs on its tensors.
//
// The rule is a template over an arithmetic `A` so that the same text is
// evaluated three ways:
//   - exactly (the reference: MPFR at a working precision, every operation
//     rounded to nearest there; the error bound is derived in
//     reference/src/rotary_frequency_mpfr.cpp),
//   - in double-double (the fast path, lib/src/fast/rotary_fast.cpp),
//   - step by step in a computation model's format (the reference: every
//     operation correctly rounded to, e.g., float32, as the framework's
//     float32 tensors round it).
// A provides: Value; number(double) (a Python float or config value entering
// the tensor code: exact, or rounded to the model's format), integer(n),
// add, sub, mul, div, pow(x, y), two_pi() (2 pi, or Python's 2 * math.pi
// rounded to the format), and greater / less on values.
#pragma once

#include <cmath>
#include <cstdint>
#include <numbers>

#include "pecheck/rotary_convention.hpp"

namespace pecheck {

// The rule in plain double, each operation rounded as double rounds it: not
// correctly rounded, but enough to see a value leave its range by far
// (rotary_ranges.cpp) and to check the rule against a formula written out
// in a test.
struct PlainDoubleArithmetic {
  using Value = double;
  static Value number(double x) { return x; }
  static Value integer(std::int64_t n) { return static_cast<double>(n); }
  static Value add(Value x, Value y) { return x + y; }
  static Value sub(Value x, Value y) { return x - y; }
  static Value mul(Value x, Value y) { return x * y; }
  static Value div(Value x, Value y) { return x / y; }
  static Value pow(Value x, Value y) { return std::pow(x, y); }
  static Value two_pi() { return 2.0 * std::numbers::pi; }
  static bool less(Value x, Value y) { return x < y; }
  static bool greater(Value x, Value y) { return x > y; }
};

template <class A>
typename A::Value rotary_inv_freq(const RotaryConvention& convention, const RotaryDerived& derived, std::int64_t i,
                                  A& a) {
  using V = typename A::Value;
  const RotaryScaling& scaling = convention.scaling;
  // The proportional form's pairs beyond int(fraction * head_dim // 2):
  // torch.zeros in _compute_proportional_rope_parameters, 0 / factor = 0.
  if (i >= derived.rotated_frequencies) return a.integer(0);
  // arange(0, d, 2).float() / d: the exponent 2i/d.
  const V exponent = a.div(a.integer(2 * i), a.integer(derived.dims));
  // base ** exponent (pos_freqs in HF's yarn, base**inv_freq_shape in longrope).
  const V power = a.pow(a.number(derived.effective_base), exponent);
  const V one = a.integer(1);
  if (scaling.kind == RotaryScalingKind::fitted) {
    // The frequencies themselves, as a tensor holds them: no operation.
    return a.number(scaling.inv_freq[static_cast<std::size_t>(i)]);
  }
  switch (scaling.kind) {
    case RotaryScalingKind::fitted:
    case RotaryScalingKind::none:
    case RotaryScalingKind::ntk:
    case RotaryScalingKind::dynamic_ntk:
      // _compute_default_rope_parameters: 1.0 / (base ** exponent), with the
      // NTK bases computed beforehand in double (rotary_derived()).
      return a.div(one, power);
    case RotaryScalingKind::linear:
      // _compute_linear_scaling_rope_parameters: the default, then inv_freq /= factor.
      return a.div(a.div(one, power), a.number(scaling.factor));
    case RotaryScalingKind::longrope: {
      // _compute_longrope_parameters: 1.0 / (ext_factors * base**inv_freq_shape).
      const double ext = (*derived.ext_factors)[static_cast<std::size_t>(i)];
      return a.div(one, a.mul(a.number(ext), power));
    }
    case RotaryScalingKind::yarn: {
      // _compute_yarn_parameters: extrapolation 1 / pos_freqs, interpolation
      // 1 / (factor * pos_freqs), blended by the extrapolation weight
      // 1 - clamp((i - low) / (high - low), 0, 1); ggml's ext_factor e < 1
      // keeps e times that weight (rope_yarn's ramp_mix).
      const V extrapolation = a.div(one, power);
      const V interpolation = a.div(one, a.mul(a.number(scaling.factor), power));
      V ramp = a.div(a.sub(a.integer(i), a.number(derived.yarn_low)), a.number(derived.yarn_high - derived.yarn_low));
      if (a.less(ramp, a.integer(0))) ramp = a.integer(0);
      if (a.greater(ramp, one)) ramp = one;
      V weight = a.sub(one, ramp);
      if (scaling.extrapolation_mix != 1.0) weight = a.mul(weight, a.number(scaling.extrapolation_mix));
      return a.add(a.mul(interpolation, a.sub(one, weight)), a.mul(extrapolation, weight));
    }
    case RotaryScalingKind::llama3: {
      // _compute_llama3_parameters: the wavelength 2 pi / inv_freq against the
      // bands original / low_freq_factor and original / high_freq_factor.
      const V inv_freq = a.div(one, power);
      const double original = static_cast<double>(scaling.original_max_position);
      const V wavelength = a.div(a.two_pi(), inv_freq);
      if (a.greater(wavelength, a.number(original / scaling.low_freq_factor))) {
        return a.div(inv_freq, a.number(scaling.factor));
      }
      if (a.less(wavelength, a.number(original / scaling.high_freq_factor))) return inv_freq;
      // Medium band: smooth = (original / wavelength - low) / (high - low);
      // (1 - smooth) * inv_freq / factor + smooth * inv_freq, left to right.
      const V smooth = a.div(a.sub(a.div(a.number(original), wavelength), a.number(scaling.low_freq_factor)),
                             a.number(scaling.high_freq_factor - scaling.low_freq_factor));
      const V low_part = a.div(a.mul(a.sub(one, smooth), inv_freq), a.number(scaling.factor));
      return a.add(low_part, a.mul(smooth, inv_freq));
    }
  }
  return a.div(one, power);
}

}  // namespace pecheck
