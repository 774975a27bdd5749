// The rotary family: checks on a subject's rotary caches (RoFormer, Su et al.
// 2021, section 3; CONVENTIONS.md "Rotary encodings (RoPE)").
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "pecheck/properties/check_definition.hpp"
#include "pecheck/properties/check_ids.hpp"
#include "pecheck/rotary_convention.hpp"

namespace pecheck::properties::rotary {

// The conventions the checks sweep: every preset, so that the scaling rules
// and the attention factors (yarn, longrope) are all exercised.
const std::vector<RotaryConvention>& swept_conventions();

// What a check sweeps on `subject`: a rotary cache file (capabilities
// fixed_rotary_convention) offers its one convention in its one format;
// otherwise every swept convention in each of `formats`.
std::vector<RotaryConvention> conventions_for(const Subject& subject);
std::vector<FormatId> formats_for(const Subject& subject, std::vector<FormatId> formats);

// "not applicable" when the subject offers no rotary caches, else empty.
std::optional<Outcome> without_rotary_caches(const Subject& subject);

extern const CheckDefinition relative_position_check;
extern const CheckDefinition pair_norm_check;
extern const CheckDefinition add_concat_rotate_check;
// On a kernel's own rotated outputs (rotated_checks.cpp).
extern const CheckDefinition rotated_pair_norm_check;
extern const CheckDefinition rotated_relative_position_check;

}  // namespace pecheck::properties::rotary
