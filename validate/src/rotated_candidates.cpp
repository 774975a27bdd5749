#include "rotated_candidates.hpp"

#include <cmath>
#include <numbers>

#include "pecheck/properties/rotary_values.hpp"
#include "pecheck/reference/nearest_rounding.hpp"

namespace pecheck::validate {

namespace {

using F = FormatId;

double f32(double x) { return reference::round_nearest(x, format_of(F::float32)); }
double in_format(double x, std::optional<F> f) { return f ? reference::round_nearest(x, format_of(*f)) : x; }

}  // namespace

bool narrow(std::optional<F> f) { return f && *f != F::float32; }

std::vector<Candidate> candidates(FormatId output) {
  using R = AngleRule;
  std::vector<Candidate> out = {
      {"the exact angles", std::nullopt, "", R::exact, {}, {}, {}, {}},
      {"float32 angles", std::nullopt, "", R::product, F::float32, F::float32, F::float32, {}},
  };
  for (const F f : {F::bfloat16, F::float16}) {
    const std::string name(format_of(f).name);
    out.push_back({"positions in " + name,
                   HazardKind::position_precision,
                   "candle PR 3520",
                   R::product,
                   f,
                   F::float32,
                   F::float32,
                   {}});
    out.push_back({"angles in " + name,
                   HazardKind::angle_precision,
                   "cactus PR 688, ml-explore/mlx-lm PR 1076",
                   R::product,
                   F::float32,
                   F::float32,
                   f,
                   {}});
    out.push_back({"inv_freq in " + name,
                   HazardKind::inv_freq_precision,
                   "Megatron-LM issue 744, InternLM issue 237",
                   R::product,
                   F::float32,
                   f,
                   F::float32,
                   {}});
    // Both at once (positions and their angles in the narrow format, as a
    // module cast to it computes them): each alone fits neither, and the
    // garbled angles read as an offset or another base.
    out.push_back({"positions and angles in " + name,
                   HazardKind::position_precision,
                   "candle PR 3520",
                   R::product,
                   f,
                   F::float32,
                   f,
                   {}});
    // Held in the output's own format it is transformers' cast (tried with every candidate): a fault only when coarser.
    if (format_of(f).precision < format_of(output).precision) {
      out.push_back({"cos and sin held in " + name, HazardKind::cache_precision, "flashinfer PR 585", R::product,
                     F::float32, F::float32, F::float32, f});
    }
  }
  out.push_back({"each pair's angle by repeated float32 multiplication (theta *= theta_scale)",
                 HazardKind::frequency_accumulation,
                 "llama.cpp's ggml rope",
                 R::accumulated,
                 F::float32,
                 F::float32,
                 F::float32,
                 {}});
  out.push_back({"sin and cos after a float32 range reduction by float32's 2 pi (an error growing with |angle|)",
                 HazardKind::fast_trig,
                 "kekzl/imp PR 1325",
                 R::reduced,
                 F::float32,
                 F::float32,
                 F::float32,
                 {}});
  return out;
}

Frequencies frequencies(const RotaryConvention& c) {
  Frequencies f;
  f.exact = properties::rotary_inv_freqs(c, std::nullopt);
  f.single = properties::rotary_inv_freqs(c, F::float32);
  f.narrow_bf16 = properties::rotary_inv_freqs(c, F::bfloat16);
  f.narrow_f16 = properties::rotary_inv_freqs(c, F::float16);
  const RotaryDerived d = rotary_derived(c);
  f.theta_scale = f32(std::pow(f32(d.effective_base), f32(-2.0 / static_cast<double>(d.dims))));
  for (std::size_t i = 0; i < f.exact.size(); ++i) {
    const double plain = std::pow(d.effective_base, -2.0 * static_cast<double>(i) / static_cast<double>(d.dims));
    f.ratio.push_back(f.exact[i] / plain);
  }
  return f;
}

namespace {

double variant(double inv, int v) {
  if (v == 1) return std::nextafter(static_cast<float>(inv), 0.0F);
  if (v == 2) return std::nextafter(static_cast<float>(inv), 1e30F);
  return inv;
}

}  // namespace

double angle_of(const Candidate& c, const Frequencies& f, std::int64_t p, std::size_t i, int v) {
  const double position = static_cast<double>(p);
  switch (c.rule) {
    case AngleRule::exact:
      return position * f.exact[i];
    case AngleRule::accumulated: {
      // Pair i's angle after i float32 multiplications (ggml). Callers ask for
      // every pair of every sampled row: each (position, variant) ladder is built once.
      std::vector<double>& ladder = f.ladders[p * variants + v];
      if (ladder.size() != f.exact.size()) {
        ladder.resize(f.exact.size());
        double theta = f32(position);
        const double scale = variant(f.theta_scale, v);
        for (std::size_t k = 0; k < ladder.size(); ++k) {
          ladder[k] = f.ratio[k] == 1.0 ? theta : f32(theta * f.ratio[k]);
          theta = f32(theta * scale);
        }
      }
      return ladder[i];
    }
    case AngleRule::product:
    case AngleRule::reduced: {
      double inv = variant(f.single[i], v);
      if (c.inv_freq == F::bfloat16) inv = f.narrow_bf16[i];
      if (c.inv_freq == F::float16) inv = f.narrow_f16[i];
      // Computed in float32 and then rounded, as a tensor .to(dtype) after the product does.
      const double angle = in_format(f32(in_format(position, c.position) * inv), c.angle);
      if (c.rule == AngleRule::product) return angle;
      const double two_pi = f32(2.0 * std::numbers::pi);
      const double k = std::nearbyint(f32(angle / two_pi));
      return f32(angle - f32(k * two_pi));
    }
  }
  return 0.0;
}

}  // namespace pecheck::validate
