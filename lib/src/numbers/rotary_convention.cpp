#include "pecheck/rotary_convention.hpp"
#include "pecheck/number_text.hpp"

#include <algorithm>
#include <cmath>
#include <numbers>
#include <sstream>

namespace pecheck {

namespace {

[[noreturn]] void reject(const RotaryConvention& convention, std::string_view field, const std::string& why) {
  throw ConventionError("rotary convention '" + convention.name + "': " + std::string(field) + " " + why);
}

std::string number_text(double value) { return round_trip(value); }

void require(bool ok, const RotaryConvention& convention, std::string_view field, double value,
             std::string_view expected) {
  if (!ok) reject(convention, field, "is " + number_text(value) + ", expected " + std::string(expected));
}

// get_mscale of _compute_yarn_parameters: 0.1 m ln(scale) + 1 above scale 1.
double yarn_mscale(double scale, double m) { return scale <= 1.0 ? 1.0 : 0.1 * m * std::log(scale) + 1.0; }

// find_correction_dim of _compute_yarn_parameters: the (fractional) dim whose
// wavelength completes `rotations` turns in the original context.
double yarn_correction_dim(double rotations, double dims, double base, double original) {
  return (dims * std::log(original / (rotations * 2.0 * std::numbers::pi))) / (2.0 * std::log(base));
}

}  // namespace

std::int64_t mrope_position_row(const RotaryConvention& convention, std::int64_t frequency) {
  const std::vector<std::int64_t>& s = convention.mrope_section;
  if (s.size() != 3) return 0;
  if (convention.mrope_interleaved) {
    // Qwen3-VL's apply_interleaved_mrope: the temporal ids everywhere, then
    // the height ids at j = 1, 4, ... below 3 * height and the width ids at
    // j = 2, 5, ... below 3 * width.
    if (frequency % 3 == 1 && frequency < 3 * s[1]) return 1;
    if (frequency % 3 == 2 && frequency < 3 * s[2]) return 2;
    return 0;
  }
  // Qwen2-VL's apply_multimodal_rotary_pos_emb: runs of s[0], s[1], s[2]
  // frequencies (the cache's two halves split alike: mrope_section * 2).
  if (frequency < s[0]) return 0;
  if (frequency < s[0] + s[1]) return 1;
  return 2;
}

std::int64_t rotary_columns(const RotaryConvention& convention) {
  const std::int64_t dims = rotary_derived(convention).dims;
  return convention.layout == RotaryLayout::complex_form ? dims / 2 : dims;
}

std::int64_t rotary_column_frequency(const RotaryConvention& convention, std::int64_t column) {
  const std::int64_t dims = rotary_derived(convention).dims;
  switch (convention.layout) {
    case RotaryLayout::rotate_half:
      return column % (dims / 2);
    case RotaryLayout::interleaved:
      return column / 2;
    case RotaryLayout::complex_form:
      return column;
  }
  return column;
}

void check_rotary_convention(const RotaryConvention& c) {
  require(std::isfinite(c.base) && c.base > 1.0, c, "base (rope_theta)", c.base, "a finite number > 1");
  if (c.head_dim < 2 || c.head_dim > max_dim) {
    reject(c, "head_dim", "is " + std::to_string(c.head_dim) + ", expected 2 to " + std::to_string(max_dim));
  }
  require(c.rotary_fraction > 0.0 && c.rotary_fraction <= 1.0, c, "rotary fraction (partial_rotary_factor)",
          c.rotary_fraction, "a number in (0, 1]");
  const bool proportional = c.partial_form == PartialRotaryForm::proportional;
  // The proportional form's cache is the whole head; its rotated pairs are
  // int(fraction * head_dim // 2) (Python's float floor division).
  const auto dims = proportional ? c.head_dim
                                 : static_cast<std::int64_t>(static_cast<double>(c.head_dim) * c.rotary_fraction);
  if (dims < 2 || dims % 2 != 0) {
    reject(c, proportional ? "head_dim (the proportional form's width)" : "rotary width int(head_dim * fraction)",
           "is " + std::to_string(dims) + ", expected an even number >= 2");
  }
  if (proportional) {
    if (std::floor(static_cast<double>(c.head_dim) * c.rotary_fraction / 2.0) < 1.0) {
      reject(c, "rotary fraction (partial_rotary_factor)",
             "is " + number_text(c.rotary_fraction) + ", expected int(fraction * head_dim // 2) >= 1 rotated pair");
    }
    if (c.scaling.kind != RotaryScalingKind::none && c.scaling.kind != RotaryScalingKind::linear) {
      reject(c, "rope_type proportional",
             "has scaling " + std::string(to_string(c.scaling.kind)) +
                 ", expected none or linear (_compute_proportional_rope_parameters divides by factor only)");
    }
  }
  if (c.query_key_dim < 0 || c.query_key_dim > max_dim) {
    reject(c, "query_key_dim (qk_nope_head_dim + qk_rope_head_dim)",
           "is " + std::to_string(c.query_key_dim) + ", expected 0 (head_dim) to " + std::to_string(max_dim));
  }
  if (!c.mrope_section.empty()) {
    std::int64_t total = 0;
    for (std::int64_t section : c.mrope_section) {
      if (section < 1 || section > dims) {
        reject(c, "mrope_section", "holds " + std::to_string(section) + ", expected positive whole numbers");
      }
      total += section;
    }
    if (c.mrope_section.size() != 3 || total != dims / 2) {
      reject(c, "mrope_section",
             "has " + std::to_string(c.mrope_section.size()) + " sections summing to " + std::to_string(total) +
                 ", expected 3 (temporal, height, width) summing to the rotary width / 2 = " + std::to_string(dims / 2));
    }
  }
  const RotaryScaling& s = c.scaling;
  if (c.attention_factor) {
    require(std::isfinite(*c.attention_factor) && *c.attention_factor > 0.0, c, "attention_factor", *c.attention_factor,
            "a finite number > 0");
  }
  if (s.kind == RotaryScalingKind::none) return;
  if (s.kind == RotaryScalingKind::fitted) {
    if (static_cast<std::int64_t>(s.inv_freq.size()) != dims / 2) {
      reject(c, "inv_freq", "has " + std::to_string(s.inv_freq.size()) + " values, expected " +
                                std::to_string(dims / 2) + " (rotary width / 2)");
    }
    for (double w : s.inv_freq) {
      require(std::isfinite(w) && w >= 0.0 && w <= std::numbers::pi, c, "inv_freq", w, "numbers in [0, pi]");
    }
    return;
  }
  require(std::isfinite(s.factor) && s.factor > 0.0, c, "rope_scaling.factor", s.factor, "a finite number > 0");
  const bool needs_original = s.kind == RotaryScalingKind::yarn || s.kind == RotaryScalingKind::longrope ||
                              s.kind == RotaryScalingKind::llama3 || s.kind == RotaryScalingKind::dynamic_ntk;
  if (needs_original && s.original_max_position < 1) {
    reject(c, "rope_scaling.original_max_position_embeddings",
           "is " + std::to_string(s.original_max_position) + ", expected a positive integer");
  }
  if (s.kind == RotaryScalingKind::llama3) {
    require(s.low_freq_factor > 0.0, c, "rope_scaling.low_freq_factor", s.low_freq_factor, "a number > 0");
    require(s.high_freq_factor > s.low_freq_factor, c, "rope_scaling.high_freq_factor", s.high_freq_factor,
            "a number > low_freq_factor");
  }
  if (s.kind == RotaryScalingKind::yarn) {
    require(s.beta_fast > 0.0 && s.beta_slow > 0.0, c, "rope_scaling.beta_fast/beta_slow",
            std::min(s.beta_fast, s.beta_slow), "positive numbers");
    require(s.extrapolation_mix > 0.0 && s.extrapolation_mix <= 1.0, c, "ext_factor", s.extrapolation_mix,
            "a number in (0, 1]");
  }
  if (s.kind == RotaryScalingKind::longrope) {
    for (const auto* factors : {&s.long_factor, &s.short_factor}) {
      const std::string_view field =
          factors == &s.long_factor ? "rope_scaling.long_factor" : "rope_scaling.short_factor";
      if (static_cast<std::int64_t>(factors->size()) != dims / 2) {
        reject(c, field,
               "has " + std::to_string(factors->size()) + " values, expected " + std::to_string(dims / 2) +
                   " (rotary width / 2)");
      }
      for (double f : *factors) require(std::isfinite(f) && f > 0.0, c, field, f, "finite numbers > 0");
    }
  }
}

RotaryDerived rotary_derived(const RotaryConvention& c) {
  check_rotary_convention(c);
  RotaryDerived d;
  d.dims = static_cast<std::int64_t>(static_cast<double>(c.head_dim) * c.rotary_fraction);
  d.frequencies = d.dims / 2;
  d.rotated_frequencies = d.frequencies;
  if (c.partial_form == PartialRotaryForm::proportional) {
    d.dims = c.head_dim;
    d.frequencies = d.dims / 2;
    d.rotated_frequencies = static_cast<std::int64_t>(std::floor(static_cast<double>(c.head_dim) * c.rotary_fraction / 2.0));
  }
  d.effective_base = c.base;
  const RotaryScaling& s = c.scaling;
  const double dims = static_cast<double>(d.dims);
  double attention = 1.0;
  d.softmax_scale = 1.0 / std::sqrt(static_cast<double>(c.query_key_dim > 0 ? c.query_key_dim : c.head_dim));
  switch (s.kind) {
    case RotaryScalingKind::none:
    case RotaryScalingKind::linear:
    case RotaryScalingKind::llama3:
    case RotaryScalingKind::fitted:
      break;
    case RotaryScalingKind::ntk:
      // Fixed-factor NTK-aware scaling: base * factor^(d/(d-2)), in double.
      d.effective_base = c.base * std::pow(s.factor, dims / (dims - 2.0));
      break;
    case RotaryScalingKind::dynamic_ntk: {
      // _compute_dynamic_ntk_parameters: seq_len below the trained length changes nothing.
      const double trained = static_cast<double>(s.original_max_position);
      const double length =
          s.sequence_length > s.original_max_position ? static_cast<double>(s.sequence_length) : trained;
      d.effective_base = c.base * std::pow((s.factor * length / trained) - (s.factor - 1.0), dims / (dims - 2.0));
      break;
    }
    case RotaryScalingKind::yarn: {
      const double original = static_cast<double>(s.original_max_position);
      double low = yarn_correction_dim(s.beta_fast, dims, c.base, original);
      double high = yarn_correction_dim(s.beta_slow, dims, c.base, original);
      if (s.truncate) {
        low = std::floor(low);
        high = std::ceil(high);
      }
      low = std::max(low, 0.0);
      high = std::min(high, dims - 1.0);
      if (low == high) high += 0.001;  // linear_ramp_factor avoids a division by zero so
      d.yarn_low = low;
      d.yarn_high = high;
      // `if mscale and mscale_all_dim:` in Python: an absent field and a 0 alike fall back.
      attention = (s.mscale.value_or(0.0) != 0.0 && s.mscale_all_dim.value_or(0.0) != 0.0)
                      ? yarn_mscale(s.factor, *s.mscale) / yarn_mscale(s.factor, *s.mscale_all_dim)
                      : yarn_mscale(s.factor, 1.0);
      // DeepseekV3Attention: scaling = qk_head_dim^-0.5 * mscale^2 with
      // mscale = get_mscale(factor, mscale_all_dim) when mscale_all_dim is nonzero.
      if (s.mscale_all_dim.value_or(0.0) != 0.0) {
        const double m = yarn_mscale(s.factor, *s.mscale_all_dim);
        d.softmax_scale *= m * m;
      }
      break;
    }
    case RotaryScalingKind::longrope: {
      const double original = static_cast<double>(s.original_max_position);
      attention = s.factor <= 1.0 ? 1.0 : std::sqrt(1.0 + std::log(s.factor) / std::log(original));
      d.ext_factors = s.sequence_length > s.original_max_position ? &s.long_factor : &s.short_factor;
      break;
    }
  }
  d.attention_factor = c.attention_factor.value_or(attention);
  return d;
}

const std::vector<ComputationModel>& computation_models() {
  static const std::vector<ComputationModel> models = {
      {"hf-float32", "transformers: inv_freq step by step in float32, float32 positions, float32 angles p * inv_freq",
       FormatId::float32, FormatId::float32, FormatId::float32, InvFreqRule::stepwise},
      {"float64", "inv_freq correctly rounded to float64, float64 positions and angles", FormatId::float64,
       FormatId::float64, FormatId::float64, InvFreqRule::correctly_rounded},
      {"hf-bfloat16-positions", "hf-float32 with positions held in bfloat16 (a fault: positions collide above 256)",
       FormatId::float32, FormatId::bfloat16, FormatId::float32, InvFreqRule::stepwise},
      {"hf-bfloat16-inv-freq", "inv_freq step by step in bfloat16 (a module cast with .to(torch.bfloat16))",
       FormatId::bfloat16, FormatId::float32, FormatId::float32, InvFreqRule::stepwise},
  };
  return models;
}

std::optional<ComputationModel> find_computation_model(std::string_view name) {
  for (const ComputationModel& model : computation_models()) {
    if (model.name == name) return model;
  }
  return std::nullopt;
}

// A framework's float32 pow may be 1 ULP off (relative 2^(1-q) at q
// significant bits; NumPy's float32 pow is, measured on base 10000, d = 128:
// 9 of 64 inv_freq differ by 1 or 2 ULP from the model's), then 1 / x and the
// model's own rounding add 2^-q each: inv_freq within relative 2^(2-q) of the
// model's.
double libm_inv_freq_allowance(const ComputationModel& model) {
  return std::ldexp(1.0, 2 - format_of(model.inv_freq).precision);
}

std::string describe(const RotaryConvention& c) {
  const RotaryDerived d = rotary_derived(c);
  std::ostringstream out;
  out << to_string(c.layout) << ", base " << number_text(c.base) << ", head_dim " << c.head_dim << ", rotary dims "
      << d.dims << ", scaling " << to_string(c.scaling.kind);
  if (c.scaling.kind == RotaryScalingKind::fitted) {
    // The ladder in brief: its ends and its pairs that never rotate.
    const std::vector<double>& w = c.scaling.inv_freq;
    const auto zeros = std::count(w.begin(), w.end(), 0.0);
    out << " (inv_freq " << number_text(w.front()) << " ... " << number_text(w.back()) << ", " << zeros
        << " pairs at frequency 0)";
  } else if (c.scaling.kind != RotaryScalingKind::none) {
    out << " (factor " << number_text(c.scaling.factor);
    if (c.scaling.extrapolation_mix != 1.0) out << ", ext_factor " << number_text(c.scaling.extrapolation_mix);
    out << ")";
  }
  // Dynamic NTK's base depends on the current length as much as on the factor.
  if (c.scaling.kind == RotaryScalingKind::dynamic_ntk) {
    out << " at length " << c.scaling.sequence_length << " over the trained " << c.scaling.original_max_position;
  }
  if (d.effective_base != c.base) out << ", effective base " << number_text(d.effective_base);
  out << ", attention factor " << number_text(d.attention_factor);
  if (c.partial_form == PartialRotaryForm::proportional) {
    out << ", proportional (" << d.rotated_frequencies << " of " << d.frequencies << " pairs rotate, over head_dim)";
  }
  if (!c.mrope_section.empty()) {
    out << ", M-RoPE sections " << c.mrope_section[0] << "/" << c.mrope_section[1] << "/" << c.mrope_section[2]
        << (c.mrope_interleaved ? " interleaved" : "");
  }
  if (!c.layer_type.empty()) out << ", layer type " << c.layer_type;
  // The softmax scale only where it is not head_dim^-1/2 (DeepSeek's wider heads and mscale_all_dim).
  if (d.softmax_scale != 1.0 / std::sqrt(static_cast<double>(c.head_dim))) {
    out << ", softmax scale " << number_text(d.softmax_scale);
  }
  return out.str();
}

std::string_view to_string(RotaryLayout layout) {
  switch (layout) {
    case RotaryLayout::rotate_half:
      return "rotate-half";
    case RotaryLayout::interleaved:
      return "interleaved";
    case RotaryLayout::complex_form:
      return "complex";
  }
  return "?";
}

std::optional<RotaryLayout> parse_rotary_layout(std::string_view name) {
  for (RotaryLayout layout : {RotaryLayout::rotate_half, RotaryLayout::interleaved, RotaryLayout::complex_form}) {
    if (to_string(layout) == name) return layout;
  }
  return std::nullopt;
}

std::string_view to_string(RotaryScalingKind kind) {
  switch (kind) {
    case RotaryScalingKind::none:
      return "none";
    case RotaryScalingKind::linear:
      return "linear";
    case RotaryScalingKind::ntk:
      return "ntk";
    case RotaryScalingKind::dynamic_ntk:
      return "dynamic-ntk";
    case RotaryScalingKind::yarn:
      return "yarn";
    case RotaryScalingKind::longrope:
      return "longrope";
    case RotaryScalingKind::llama3:
      return "llama3";
    case RotaryScalingKind::fitted:
      return "fitted";
  }
  return "?";
}

std::string_view to_string(PartialRotaryForm form) {
  return form == PartialRotaryForm::proportional ? "proportional" : "truncated";
}

}  // namespace pecheck
