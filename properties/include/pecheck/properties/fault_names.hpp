// Every fault's name, spelled once. The fault list (fault_matrix.cpp) names
// its subjects with these, and each check's definition lists the faults it
// catches through them, so a misspelt fault is a compile error; that each
// name a check lists is in the fault list is checked when the matrix is built.
#pragma once

#include <string_view>

namespace pecheck::properties::faults {

// The table: faults of the encoding itself.
inline constexpr std::string_view sin_cos_swapped = "sin-cos-swapped";
inline constexpr std::string_view one_pair_swapped = "one-pair-swapped";
inline constexpr std::string_view wrong_layout = "wrong-layout";
inline constexpr std::string_view float32_angles = "float32-angles";
inline constexpr std::string_view timescale_rule = "timescale-rule";
inline constexpr std::string_view unzeroed_padding = "unzeroed-padding";
inline constexpr std::string_view offset_by_one = "offset-by-one";
inline constexpr std::string_view bfloat16_positions = "bfloat16-positions";
inline constexpr std::string_view float16_positions = "float16-positions";
inline constexpr std::string_view float16_storage = "float16-storage";
inline constexpr std::string_view corrupted_row = "corrupted-row";
inline constexpr std::string_view random_init = "random-init";

// The embedding operations: the scale and the concatenation.
inline constexpr std::string_view scale_divided = "scale-divided";
inline constexpr std::string_view scale_missing = "scale-missing";
inline constexpr std::string_view scale_applied_twice = "scale-applied-twice";
inline constexpr std::string_view scale_truncated = "scale-truncated";
inline constexpr std::string_view scale_rounded_bfloat16 = "scale-rounded-bfloat16";
inline constexpr std::string_view embedding_dropped = "embedding-dropped";
inline constexpr std::string_view padding_wrong_side = "padding-wrong-side";
inline constexpr std::string_view padding_off_by_one = "padding-off-by-one";
inline constexpr std::string_view concat_reversed = "concat-reversed";

// Rotary caches (RoPE).
inline constexpr std::string_view rotary_bfloat16_positions = "rotary-bfloat16-positions";
inline constexpr std::string_view rotary_float16_computation = "rotary-float16-computation";
inline constexpr std::string_view rotary_bfloat16_inv_freq = "rotary-bfloat16-inv-freq";
inline constexpr std::string_view rotary_float16_cache = "rotary-float16-cache";
inline constexpr std::string_view rotary_wrong_base = "rotary-wrong-base";
inline constexpr std::string_view rotary_scaling_ignored = "rotary-scaling-ignored";
inline constexpr std::string_view rotary_cos_sin_swapped = "rotary-cos-sin-swapped";
inline constexpr std::string_view rotary_attention_factor_missing = "rotary-attention-factor-missing";
inline constexpr std::string_view rotary_attention_factor_twice = "rotary-attention-factor-twice";

// RoPE kernels: the rotation applied to queries and keys (RotaryKernel;
// rotated_faults.cpp), one per hazard `pecheck validate` diagnoses.
inline constexpr std::string_view kernel_position_precision = "kernel-position-precision";
inline constexpr std::string_view kernel_angle_precision = "kernel-angle-precision";
inline constexpr std::string_view kernel_inv_freq_precision = "kernel-inv-freq-precision";
inline constexpr std::string_view kernel_cache_precision = "kernel-cache-precision";
inline constexpr std::string_view kernel_frequency_accumulation = "kernel-frequency-accumulation";
inline constexpr std::string_view kernel_fast_trig = "kernel-fast-trig";
inline constexpr std::string_view kernel_layout_mismatch = "kernel-layout-mismatch";
inline constexpr std::string_view kernel_wrong_base = "kernel-wrong-base";
inline constexpr std::string_view kernel_wrong_scaling = "kernel-wrong-scaling";
inline constexpr std::string_view kernel_direction = "kernel-direction";
inline constexpr std::string_view kernel_attention_factor = "kernel-attention-factor";
inline constexpr std::string_view kernel_partial_width = "kernel-partial-width";
inline constexpr std::string_view kernel_partial_factor_ignored = "kernel-partial-factor-ignored";
inline constexpr std::string_view kernel_proportional_partial = "kernel-proportional-partial";
inline constexpr std::string_view kernel_mrope_position_delta = "kernel-mrope-position-delta";

// Known escapes: no check catches them (escaping_faults()).
inline constexpr std::string_view one_ulp_noise = "one-ulp-noise";

}  // namespace pecheck::properties::faults
