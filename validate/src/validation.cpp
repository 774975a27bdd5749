#include "pecheck/validate/validation.hpp"

#include <algorithm>

namespace pecheck::validate {

const Hazard* Validation::hazard(HazardKind wanted) const {
  const auto found = std::find_if(hazards.begin(), hazards.end(), [&](const Hazard& h) { return h.kind == wanted; });
  return found == hazards.end() ? nullptr : &*found;
}

void Validation::add_hazard(Hazard found) {
  if (!has(found.kind)) hazards.push_back(std::move(found));
}

std::string_view to_string(SubjectKind kind) {
  switch (kind) {
    case SubjectKind::table: return "table";
    case SubjectKind::rotary_cache: return "rotary";
    case SubjectKind::input_layer: return "input-layer";
    case SubjectKind::rotated: return "rotated";
  }
  return "?";
}

std::string_view to_string(ValidationVerdict verdict) {
  switch (verdict) {
    case ValidationVerdict::conforms: return "conforms";
    case ValidationVerdict::deviates: return "deviates";
    case ValidationVerdict::unknown: return "unknown";
  }
  return "?";
}

std::string_view to_string(HazardKind kind) {
  switch (kind) {
    case HazardKind::position_precision: return "position-precision";
    case HazardKind::angle_precision: return "angle-precision";
    case HazardKind::inv_freq_precision: return "inv-freq-precision";
    case HazardKind::out_of_range: return "out-of-range";
    case HazardKind::non_finite: return "non-finite";
    case HazardKind::not_sinusoidal: return "not-sinusoidal";
    case HazardKind::not_rotary: return "not-rotary";
    case HazardKind::convention_mismatch: return "convention-mismatch";
    case HazardKind::drifted: return "drifted";
    case HazardKind::scaled: return "scaled";
    case HazardKind::wrong_base: return "wrong-base";
    case HazardKind::wrong_scaling: return "wrong-scaling";
    case HazardKind::cos_sin_swapped: return "cos-sin-swapped";
    case HazardKind::attention_factor: return "attention-factor";
    case HazardKind::layout_mismatch: return "layout-mismatch";
    case HazardKind::row_offset: return "row-offset";
    case HazardKind::cache_precision: return "cache-precision";
    case HazardKind::frequency_accumulation: return "frequency-accumulation";
    case HazardKind::fast_trig: return "fast-trig";
    case HazardKind::direction: return "direction";
    case HazardKind::partial_width: return "partial-width";
    case HazardKind::position_offset: return "position-offset";
    case HazardKind::pass_through_changed: return "pass-through-changed";
    case HazardKind::not_rotated: return "not-rotated";
    case HazardKind::layer_type: return "layer-type";
    case HazardKind::custom_rule: return "custom-rule";
    case HazardKind::softmax_scale: return "softmax-scale";
  }
  return "?";
}

}  // namespace pecheck::validate
