// Faulty RoPE kernels, one per hazard `pecheck validate` diagnoses in a
// rotated output (CONVENTIONS.md, "Applying the rotation"): subjects that
// forward everything else and rotate queries and keys the faulty way
// (RotaryKernel). The fault matrix proves which of the rotated-output checks
// (rotated_checks.cpp) catches each.
#include <cmath>
#include <numbers>
#include <optional>
#include <utility>

#include "pecheck/properties/fault_names.hpp"
#include "pecheck/properties/faulty_subjects.hpp"
#include "pecheck/properties/rotary_values.hpp"
#include "pecheck/rotary_kernel.hpp"

namespace pecheck::properties {

namespace {

// What the faulty kernel does differently from the exact rotation.
struct KernelFault {
  std::optional<FormatId> positions;  // positions held in this format before the angle
  std::optional<FormatId> angles;     // the angle p theta_i rounded to this format
  std::optional<FormatId> inv_freq;   // inv_freq_i rounded to this format
  std::optional<FormatId> cache;      // A cos and A sin rounded to this format before the rotation
  bool accumulate = false;            // theta_i by repeated float32 multiplication (ggml's theta *= theta_scale)
  bool fast_trig = false;             // short polynomials after a float32 quadrant reduction
  bool other_layout = false;          // NEOX pairs where NORMAL ones are expected, or the reverse
  bool wrong_base = false;            // rope_theta 10000 for anything else, 500000 for 10000
  bool no_scaling = false;            // rope_scaling ignored (the plain rule)
  bool reverse = false;               // rotation by -theta
  bool no_attention_factor = false;   // A left out
  bool half_width = false;            // half the rotary width rotated, the rest passed through
  bool full_head = false;             // partial_rotary_factor ignored: the whole head rotated
  bool proportional = false;          // a truncated partial rotary in the proportional form
  bool mrope_delta = false;           // M-RoPE ids from position 4096 on (after an image) one ahead
};

// sin and cos as fast approximations compute them: the quadrant reduction in
// float32 (fused, with pi/2 rounded to float32: its error grows with |angle|)
// and Taylor polynomials of degree 7 (sin, within 2^-21.5 on [-pi/4, pi/4])
// and 6 (cos, within 2^-18), as __sinf-grade code is accurate to about 2^-21.
std::pair<double, double> fast_sin_cos(double angle) {
  const float a = static_cast<float>(angle);
  const float half_pi = static_cast<float>(std::numbers::pi / 2);
  const float q = std::nearbyint(a / half_pi);
  const double r = std::fma(-q, half_pi, a);
  const double r2 = r * r;
  const double s = r * (1 - r2 / 6 * (1 - r2 / 20 * (1 - r2 / 42)));
  const double c = 1 - r2 / 2 * (1 - r2 / 12 * (1 - r2 / 30));
  switch (static_cast<long long>(q) & 3) {
    case 0:
      return {s, c};
    case 1:
      return {c, -s};
    case 2:
      return {-s, -c};
    default:
      return {-c, s};
  }
}

class FaultyKernel final : public ForwardingSubject, public RotaryKernel {
 public:
  FaultyKernel(std::shared_ptr<const Subject> inner, std::string name, KernelFault fault)
      : ForwardingSubject(std::move(inner), std::move(name)), fault_(fault) {}

  Table rotate(const RotaryConvention& convention, const TableView& input, std::span<const std::int64_t> positions,
               FormatId format) const override {
    RotaryConvention used = convention;
    if (fault_.wrong_base) used.base = convention.base == 10000.0 ? 500000.0 : 10000.0;
    if (fault_.no_scaling) used.scaling = RotaryScaling{};
    // Under one position per row (text) M-RoPE's sections do not change the
    // rotation, so the faults below that change the width drop them.
    if (fault_.full_head) {
      used.rotary_fraction = 1.0;
      used.partial_form = PartialRotaryForm::truncated;
      used.mrope_section.clear();
    }
    const bool plain_rule =
        used.scaling.kind == RotaryScalingKind::none || used.scaling.kind == RotaryScalingKind::linear;
    if (fault_.proportional && used.rotary_fraction < 1.0 && plain_rule) {
      used.partial_form = PartialRotaryForm::proportional;
      used.mrope_section.clear();
    }
    if (fault_.other_layout) {
      used.layout =
          convention.layout == RotaryLayout::rotate_half ? RotaryLayout::interleaved : RotaryLayout::rotate_half;
    }
    const RotaryDerived derived = rotary_derived(used);
    const double factor = fault_.no_attention_factor ? 1.0 : rotary_derived(convention).attention_factor;
    std::vector<double> inv_freq = rotary_inv_freqs(used, std::nullopt);
    if (fault_.inv_freq) {
      for (double& v : inv_freq) v = round_to_format(v, format_of(*fault_.inv_freq));
    }
    std::int64_t width = derived.dims;
    if (fault_.half_width) {
      // The rule at half the width: theta_i there is the full width's theta_2i.
      width = derived.dims / 4 * 2;
      std::vector<double> half;
      for (std::int64_t i = 0; i < width / 2; ++i) half.push_back(inv_freq[static_cast<std::size_t>(2 * i)]);
      inv_freq = std::move(half);
    }
    // ggml's ladder: theta_scale = base^(-2/d) in float32, each pair's angle
    // the previous one times it, rounded to float32; the scaling rule's own
    // factor (inv_freq over the plain ladder) applied afterwards, as ggml
    // applies its frequency factors.
    const float theta_scale =
        static_cast<float>(std::pow(derived.effective_base, -2.0 / static_cast<double>(derived.dims)));
    Table out = make_uninitialized_table(input.rows(), input.cols(), format);
    for (std::int64_t r = 0; r < input.rows(); ++r) {
      for (std::int64_t c = 0; c < input.cols(); ++c) out.set(r, c, input.at(r, c));
      double p = static_cast<double>(positions[static_cast<std::size_t>(r)]);
      if (fault_.positions) p = round_to_format(p, format_of(*fault_.positions));
      if (fault_.mrope_delta && !convention.mrope_section.empty() && p >= 4096.0) p += 1.0;
      float ladder = static_cast<float>(p);
      for (std::int64_t i = 0; i < width / 2; ++i) {
        const auto k = static_cast<std::size_t>(i);
        double angle = p * inv_freq[k];
        if (fault_.accumulate) {
          const double plain =
              std::pow(derived.effective_base, -2.0 * static_cast<double>(i) / static_cast<double>(derived.dims));
          angle = static_cast<float>(ladder * static_cast<float>(inv_freq[k] / plain));
          ladder = ladder * theta_scale;
        }
        if (fault_.angles) angle = round_to_format(angle, format_of(*fault_.angles));
        auto [s, c] = fault_.fast_trig ? fast_sin_cos(angle) : std::pair{std::sin(angle), std::cos(angle)};
        c *= factor;
        s *= factor;
        if (fault_.cache) {
          c = round_to_format(c, format_of(*fault_.cache));
          s = round_to_format(s, format_of(*fault_.cache));
        }
        if (fault_.reverse) s = -s;
        const auto [a, b] = rotary_pair_columns(used.layout, width, i);
        const double xa = input.at(r, a), xb = input.at(r, b);
        out.set(r, a, xa * c - xb * s);
        out.set(r, b, xa * s + xb * c);
      }
    }
    return out;
  }

 private:
  KernelFault fault_;
};

// The correct kernel with one setting changed by `set`.
std::unique_ptr<Subject> make(std::shared_ptr<const Subject> inner, std::string_view name, void (*set)(KernelFault&)) {
  KernelFault fault;
  set(fault);
  return std::make_unique<FaultyKernel>(std::move(inner), "fault:" + std::string(name), fault);
}

}  // namespace

std::unique_ptr<Subject> make_kernel_position_precision_subject(std::shared_ptr<const Subject> inner) {
  return make(std::move(inner), faults::kernel_position_precision,
              [](KernelFault& f) { f.positions = FormatId::bfloat16; });
}
std::unique_ptr<Subject> make_kernel_angle_precision_subject(std::shared_ptr<const Subject> inner) {
  return make(std::move(inner), faults::kernel_angle_precision, [](KernelFault& f) { f.angles = FormatId::bfloat16; });
}
std::unique_ptr<Subject> make_kernel_inv_freq_precision_subject(std::shared_ptr<const Subject> inner) {
  return make(std::move(inner), faults::kernel_inv_freq_precision,
              [](KernelFault& f) { f.inv_freq = FormatId::bfloat16; });
}
std::unique_ptr<Subject> make_kernel_wrong_scaling_subject(std::shared_ptr<const Subject> inner) {
  return make(std::move(inner), faults::kernel_wrong_scaling, [](KernelFault& f) { f.no_scaling = true; });
}
std::unique_ptr<Subject> make_kernel_cache_precision_subject(std::shared_ptr<const Subject> inner) {
  return make(std::move(inner), faults::kernel_cache_precision, [](KernelFault& f) { f.cache = FormatId::bfloat16; });
}
std::unique_ptr<Subject> make_kernel_frequency_accumulation_subject(std::shared_ptr<const Subject> inner) {
  return make(std::move(inner), faults::kernel_frequency_accumulation, [](KernelFault& f) { f.accumulate = true; });
}
std::unique_ptr<Subject> make_kernel_fast_trig_subject(std::shared_ptr<const Subject> inner) {
  return make(std::move(inner), faults::kernel_fast_trig, [](KernelFault& f) { f.fast_trig = true; });
}
std::unique_ptr<Subject> make_kernel_layout_mismatch_subject(std::shared_ptr<const Subject> inner) {
  return make(std::move(inner), faults::kernel_layout_mismatch, [](KernelFault& f) { f.other_layout = true; });
}
std::unique_ptr<Subject> make_kernel_wrong_base_subject(std::shared_ptr<const Subject> inner) {
  return make(std::move(inner), faults::kernel_wrong_base, [](KernelFault& f) { f.wrong_base = true; });
}
std::unique_ptr<Subject> make_kernel_direction_subject(std::shared_ptr<const Subject> inner) {
  return make(std::move(inner), faults::kernel_direction, [](KernelFault& f) { f.reverse = true; });
}
std::unique_ptr<Subject> make_kernel_attention_factor_subject(std::shared_ptr<const Subject> inner) {
  return make(std::move(inner), faults::kernel_attention_factor, [](KernelFault& f) { f.no_attention_factor = true; });
}
std::unique_ptr<Subject> make_kernel_partial_width_subject(std::shared_ptr<const Subject> inner) {
  return make(std::move(inner), faults::kernel_partial_width, [](KernelFault& f) { f.half_width = true; });
}

std::unique_ptr<Subject> make_kernel_partial_factor_ignored_subject(std::shared_ptr<const Subject> inner) {
  return make(std::move(inner), faults::kernel_partial_factor_ignored, [](KernelFault& f) { f.full_head = true; });
}
std::unique_ptr<Subject> make_kernel_proportional_partial_subject(std::shared_ptr<const Subject> inner) {
  return make(std::move(inner), faults::kernel_proportional_partial, [](KernelFault& f) { f.proportional = true; });
}
std::unique_ptr<Subject> make_kernel_mrope_position_delta_subject(std::shared_ptr<const Subject> inner) {
  return make(std::move(inner), faults::kernel_mrope_position_delta, [](KernelFault& f) { f.mrope_delta = true; });
}

}  // namespace pecheck::properties
