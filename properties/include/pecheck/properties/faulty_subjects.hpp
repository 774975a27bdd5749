// Deliberately faulty subjects, each a numeric fault seen in real code
// (CONVENTIONS.md), each named with the checks that must catch it. They prove
// that every check can fail: a check no fault can fail proves nothing.
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "pecheck/properties/check.hpp"
#include "pecheck/subject.hpp"

namespace pecheck::properties {

// sin and cos exchanged in every frequency pair.
std::unique_ptr<Subject> make_sin_cos_swapped_subject(std::shared_ptr<const Subject> inner);
// The angle p*w computed in float32 (position and frequency rounded to float,
// the product rounded to float), then sinf / cosf, as the PyTorch tutorial does.
std::unique_ptr<Subject> make_float32_angle_subject(std::shared_ptr<const Subject> inner);
// The timescale rule (min 1, max = the paper's base) wherever the convention
// asks for the paper's rule.
std::unique_ptr<Subject> make_timescale_rule_subject(std::shared_ptr<const Subject> inner);
// The convention's zero rows (fairseq's padding row) left unzeroed.
std::unique_ptr<Subject> make_unzeroed_padding_subject(std::shared_ptr<const Subject> inner);
// Positions held in bfloat16 before the angle is computed: exact only to 256.
std::unique_ptr<Subject> make_bfloat16_position_subject(std::shared_ptr<const Subject> inner);
// Positions held in float16 before the angle is computed: exact only to 2048.
std::unique_ptr<Subject> make_float16_position_subject(std::shared_ptr<const Subject> inner);
// The table computed in float16 and handed out in the requested format (a
// float16 checkpoint upcast): values carry 11 bits whatever the format says.
std::unique_ptr<Subject> make_float16_storage_subject(std::shared_ptr<const Subject> inner);
// The table overwritten by a random initialisation, N(0, 1) entries.
std::unique_ptr<Subject> make_random_init_subject(std::shared_ptr<const Subject> inner);

// Small, local faults (faulty_tables.cpp).
// sin and cos exchanged in the middle frequency pair only.
std::unique_ptr<Subject> make_one_pair_swapped_subject(std::shared_ptr<const Subject> inner);
// Interleaved columns where halves are expected, halves where interleaved are.
std::unique_ptr<Subject> make_wrong_layout_subject(std::shared_ptr<const Subject> inner);
// Row r holds position r + 1.
std::unique_ptr<Subject> make_offset_by_one_subject(std::shared_ptr<const Subject> inner);
// The row of position 1 stored with its signs flipped.
std::unique_ptr<Subject> make_corrupted_row_subject(std::shared_ptr<const Subject> inner);
// One entry in a million (by a hash of position and column) 1 ULP away from zero.
std::unique_ptr<Subject> make_one_ulp_noise_subject(std::shared_ptr<const Subject> inner);
// sqrt(d) rounded to bfloat16 whatever the format (then to the format).
std::unique_ptr<Subject> make_scale_rounded_bfloat16_subject(std::shared_ptr<const Subject> inner);

// Faults of the embedding operations (CONVENTIONS.md fault 7 and the
// concatenation's zero padding), in scaling_faults.cpp.
// s * E computed as E / s.
std::unique_ptr<Subject> make_scale_divided_subject(std::shared_ptr<const Subject> inner);
// The scale left out: E + PE.
std::unique_ptr<Subject> make_scale_missing_subject(std::shared_ptr<const Subject> inner);
// The scale applied twice: s * (s * E) + PE.
std::unique_ptr<Subject> make_scale_applied_twice_subject(std::shared_ptr<const Subject> inner);
// sqrt(d) rounded toward zero in the format instead of to nearest.
std::unique_ptr<Subject> make_scale_truncated_subject(std::shared_ptr<const Subject> inner);
// The token embedding dropped from the sum: PE alone.
std::unique_ptr<Subject> make_embedding_dropped_subject(std::shared_ptr<const Subject> inner);
// zero_pad puts the zero block on the wrong side (left and right exchanged).
std::unique_ptr<Subject> make_padding_wrong_side_subject(std::shared_ptr<const Subject> inner);
// zero_pad off by one: one zero column moved from the right to the left (or back).
std::unique_ptr<Subject> make_padding_off_by_one_subject(std::shared_ptr<const Subject> inner);
// concat_embeddings in the wrong order: [PE[p], s * E[t]].
std::unique_ptr<Subject> make_concat_reversed_subject(std::shared_ptr<const Subject> inner);

// Faulty rotary caches (rotary_faults.cpp; CONVENTIONS.md "Rotary encodings").
// Positions held in bfloat16 before the angle (candle PR 3520).
std::unique_ptr<Subject> make_rotary_bfloat16_position_subject(std::shared_ptr<const Subject> inner);
// inv_freq, positions and angles in float16 (gpt-neox issue 1003).
std::unique_ptr<Subject> make_rotary_float16_computation_subject(std::shared_ptr<const Subject> inner);
// inv_freq rounded to bfloat16 with the module (Megatron-LM issue 744, InternLM issue 237).
std::unique_ptr<Subject> make_rotary_bfloat16_inv_freq_subject(std::shared_ptr<const Subject> inner);
// The cache stored in float16 and handed out wider (transformers issue 25681).
std::unique_ptr<Subject> make_rotary_float16_cache_subject(std::shared_ptr<const Subject> inner);
// rope_theta 10000 for 500000, or the reverse.
std::unique_ptr<Subject> make_rotary_wrong_base_subject(std::shared_ptr<const Subject> inner);
// rope_scaling ignored (the plain rule, the same attention factor).
std::unique_ptr<Subject> make_rotary_scaling_ignored_subject(std::shared_ptr<const Subject> inner);
// The cos and sin caches exchanged.
std::unique_ptr<Subject> make_rotary_cos_sin_swapped_subject(std::shared_ptr<const Subject> inner);
// attention_scaling not applied, or applied twice.
std::unique_ptr<Subject> make_rotary_attention_factor_missing_subject(std::shared_ptr<const Subject> inner);
std::unique_ptr<Subject> make_rotary_attention_factor_twice_subject(std::shared_ptr<const Subject> inner);

// Faulty RoPE kernels (rotated_faults.cpp; RotaryKernel): queries and keys
// rotated the faulty way, one per hazard pecheck validate diagnoses.
// Positions held in bfloat16 before the angle (candle PR 3520).
std::unique_ptr<Subject> make_kernel_position_precision_subject(std::shared_ptr<const Subject> inner);
// The angle p theta_i rounded to bfloat16 (cactus-compute/cactus PR 688: angles in a 16-bit format).
std::unique_ptr<Subject> make_kernel_angle_precision_subject(std::shared_ptr<const Subject> inner);
// inv_freq rounded to bfloat16 with the module (Megatron-LM issue 744).
std::unique_ptr<Subject> make_kernel_inv_freq_precision_subject(std::shared_ptr<const Subject> inner);
// cos and sin rounded to bfloat16 whatever the output's format (flashinfer-ai/flashinfer PR 585).
std::unique_ptr<Subject> make_kernel_cache_precision_subject(std::shared_ptr<const Subject> inner);
// Each pair's angle the previous one times theta_scale in float32 (ggml's rope).
std::unique_ptr<Subject> make_kernel_frequency_accumulation_subject(std::shared_ptr<const Subject> inner);
// sin and cos from short polynomials after a float32 reduction (kekzl/imp PR 1325's __sinf/__cosf).
std::unique_ptr<Subject> make_kernel_fast_trig_subject(std::shared_ptr<const Subject> inner);
// Interleaved pairs where rotate-half ones are expected, or the reverse (ggml-org/llama.cpp issue 3018).
std::unique_ptr<Subject> make_kernel_layout_mismatch_subject(std::shared_ptr<const Subject> inner);
// rope_theta 10000 where it is 500000, or the reverse.
std::unique_ptr<Subject> make_kernel_wrong_base_subject(std::shared_ptr<const Subject> inner);
// rope_scaling ignored: the plain rule's frequencies (the attention factor kept).
std::unique_ptr<Subject> make_kernel_wrong_scaling_subject(std::shared_ptr<const Subject> inner);
// The rotation by -theta.
std::unique_ptr<Subject> make_kernel_direction_subject(std::shared_ptr<const Subject> inner);
// The attention factor (YaRN, LongRoPE) left out of the rotation.
std::unique_ptr<Subject> make_kernel_attention_factor_subject(std::shared_ptr<const Subject> inner);
// Half the rotary width rotated (a partial_rotary_factor applied twice).
std::unique_ptr<Subject> make_kernel_partial_width_subject(std::shared_ptr<const Subject> inner);
// partial_rotary_factor ignored: the whole head rotated (AI-Hypercomputer/maxtext issue 4616, on its M-RoPE path).
std::unique_ptr<Subject> make_kernel_partial_factor_ignored_subject(std::shared_ptr<const Subject> inner);
// A truncated partial rotary computed in the proportional form: frequencies over
// head_dim, pairs (i, i + head_dim/2) (pie-project/pie PR 603).
std::unique_ptr<Subject> make_kernel_proportional_partial_subject(std::shared_ptr<const Subject> inner);
// M-RoPE: the ids of the tokens after an image (here: positions from 4096 on)
// one ahead of the ids before it (vllm 16878).
std::unique_ptr<Subject> make_kernel_mrope_position_delta_subject(std::shared_ptr<const Subject> inner);

// One fault of the fault list, and the checks it must fail. Which checks
// catch it is not written here: each check's definition lists the faults it
// catches (CheckDefinition::catches), and fault_matrix() inverts those lists
// into `caught_by`. A check that catches nothing is an observation.
struct Fault {
  std::string_view name;    // a fault_names.hpp constant; the subject is named "fault:" + name
  std::string description;  // one sentence
  std::string source;       // where the fault was seen
  std::function<std::unique_ptr<Subject>(std::shared_ptr<const Subject>)> make;
  std::vector<std::string> caught_by = {};  // derived: the ids of the checks that list this fault, registry order
};

// Every fault subject with the checks that catch it (fault_matrix.cpp); the
// fault matrix test proves every cell. Building it throws std::logic_error
// when a check lists a fault this list does not hold, or lists one twice.
const std::vector<Fault>& fault_matrix();
// Faults no check catches today (no check lists them), each with why: the
// test proves they still escape, so a check that starts catching one moves
// it into the matrix and into that check's `catches`.
const std::vector<Fault>& escaping_faults();
// The matrix's cells: each fault of `faults` with the ids of the `checks`
// that list it, in their order. Throws std::logic_error when a check lists a
// fault `faults` does not hold, or lists one twice (fault_matrix() is this
// over the fault list and the registry).
std::vector<Fault> with_cells(std::vector<Fault> faults, const std::vector<Check>& checks);
// The names of the faults the matrix says `check_id` catches, in matrix order.
std::vector<std::string> faults_caught_by(std::string_view check_id);

}  // namespace pecheck::properties
