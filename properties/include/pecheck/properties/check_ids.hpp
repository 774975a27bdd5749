// Every registered check's id, spelled once. The registry, the fault matrix,
// reports and tests name checks through these constants, so renaming a check
// is one edit and a misspelt id is a compile error, not a silently empty row.
#pragma once

#include <array>
#include <string_view>

#include "pecheck/format.hpp"

namespace pecheck::properties::check_ids {

// encoding-bounds
inline constexpr std::string_view unit_interval = "encoding-bounds/unit-interval";
inline constexpr std::string_view pythagorean_identity = "encoding-bounds/pythagorean-identity";
inline constexpr std::string_view squared_norm = "encoding-bounds/squared-norm";
inline constexpr std::string_view origin = "encoding-bounds/origin";
inline constexpr std::string_view zero_rows = "encoding-bounds/zero-rows";
inline constexpr std::string_view relative_position = "encoding-bounds/relative-position";
inline constexpr std::string_view frequency_ladder = "encoding-bounds/frequency-ladder";
inline constexpr std::string_view distinct_positions = "encoding-bounds/distinct-positions";
inline constexpr std::string_view slow_columns = "encoding-bounds/slow-columns";
inline constexpr std::string_view constant_columns_exact = "encoding-bounds/constant-columns-exact";

// scaling-variance
inline constexpr std::string_view scale_factor_rounding = "scaling-variance/scale-factor-rounding";
inline constexpr std::string_view scaled_second_moment = "scaling-variance/scaled-second-moment";
inline constexpr std::string_view unit_variance_closed_form = "scaling-variance/unit-variance-closed-form";
inline constexpr std::string_view unit_variance_sampled = "scaling-variance/unit-variance-sampled";
inline constexpr std::string_view energy_ratio = "scaling-variance/energy-ratio";
inline constexpr std::string_view token_recoverability = "scaling-variance/token-recoverability";
inline constexpr std::string_view recovery_sweep = "scaling-variance/recovery-sweep";
inline constexpr std::string_view attention_logit_variance = "scaling-variance/attention-logit-variance";
inline constexpr std::string_view tied_logit_variance = "scaling-variance/tied-logit-variance";
inline constexpr std::string_view logit_decomposition = "scaling-variance/first-layer-logit-decomposition";
inline constexpr std::string_view initialisation_variance = "scaling-variance/initialisation-variance";
inline constexpr std::string_view vocabulary_statistics = "scaling-variance/vocabulary-statistics";

// add-vs-concat
inline constexpr std::string_view construction = "add-vs-concat/construction";
inline constexpr std::string_view linearity = "add-vs-concat/linearity";
inline constexpr std::string_view strictness = "add-vs-concat/strictness";
inline constexpr std::string_view near_orthogonality = "add-vs-concat/near-orthogonality";
inline constexpr std::string_view column_energy = "add-vs-concat/column-energy";
inline constexpr std::string_view encoding_subspace = "add-vs-concat/encoding-subspace";

// conformance: one sweep per format, then the two that span positions
inline constexpr std::string_view conformance_float64 = "conformance/float64";
inline constexpr std::string_view conformance_float32 = "conformance/float32";
inline constexpr std::string_view conformance_float16 = "conformance/float16";
inline constexpr std::string_view conformance_bfloat16 = "conformance/bfloat16";
inline constexpr std::string_view any_position = "conformance/any-position";
inline constexpr std::string_view accuracy_by_position = "conformance/accuracy-by-position";

// rotary
inline constexpr std::string_view rotary_relative_position = "rotary/relative-position";
inline constexpr std::string_view rotary_pair_norm = "rotary/pair-norm";
inline constexpr std::string_view add_concat_rotate = "rotary/add-concat-rotate";
// rotary, on a kernel's own rotated outputs (RotaryKernel)
inline constexpr std::string_view rotated_pair_norm = "rotary/rotated-pair-norm";
inline constexpr std::string_view rotated_relative_position = "rotary/rotated-relative-position";

// training: registered by training/ where libtorch was found, and run only on
// request (pecheck report --training), so they are not in `all` below.
inline constexpr std::string_view learning_curves = "training/learning-curves";
inline constexpr std::string_view unit_init_with_scale_lags = "training/unit-init-with-scale-lags";
inline constexpr std::string_view scale_at_small_sigma = "training/scale-at-small-sigma";
inline constexpr std::string_view concat_against_add = "training/concat-against-add";
inline constexpr std::string_view nope_learns = "training/nope-learns-with-causal-mask";
inline constexpr std::string_view same_seed_same_run = "training/same-seed-same-run";

// Every id above, for the test that holds them and the registry together.
inline constexpr std::array all = {
    unit_interval,
    pythagorean_identity,
    squared_norm,
    origin,
    zero_rows,
    relative_position,
    frequency_ladder,
    distinct_positions,
    slow_columns,
    constant_columns_exact,
    scale_factor_rounding,
    scaled_second_moment,
    unit_variance_closed_form,
    unit_variance_sampled,
    energy_ratio,
    token_recoverability,
    recovery_sweep,
    attention_logit_variance,
    tied_logit_variance,
    logit_decomposition,
    initialisation_variance,
    vocabulary_statistics,
    construction,
    linearity,
    strictness,
    near_orthogonality,
    column_energy,
    encoding_subspace,
    conformance_float64,
    conformance_float32,
    conformance_float16,
    conformance_bfloat16,
    any_position,
    accuracy_by_position,
    rotary_relative_position,
    rotary_pair_norm,
    add_concat_rotate,
    rotated_pair_norm,
    rotated_relative_position,
};

// The conformance sweep of one format.
constexpr std::string_view conformance(FormatId format) {
  switch (format) {
    case FormatId::float64:
      return conformance_float64;
    case FormatId::float32:
      return conformance_float32;
    case FormatId::float16:
      return conformance_float16;
    case FormatId::bfloat16:
      return conformance_bfloat16;
  }
  return conformance_float32;
}

}  // namespace pecheck::properties::check_ids
