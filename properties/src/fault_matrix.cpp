// The fault list: each fault subject (faulty_subjects.hpp) with its name,
// description and source. Which checks catch a fault is said by the checks
// themselves (CheckDefinition::catches); the matrix inverts those lists. The
// matrix test (properties/tests/fault_matrix_test.cpp) proves every cell
// against the correct fast subject, which passes the same checks; a check
// that catches no fault is an observation.
#include <algorithm>
#include <stdexcept>
#include <string>
#include <string_view>

#include "pecheck/properties/fault_names.hpp"
#include "pecheck/properties/faulty_subjects.hpp"
#include "pecheck/properties/registry.hpp"

namespace pecheck::properties {

// Which checks catch each fault, inverted from the checks' definitions
// (CheckDefinition::catches) in registry order. A check listing a fault the
// list does not hold (an escaping one included), or one fault twice, is a
// programming error, reported at once.
std::vector<Fault> with_cells(std::vector<Fault> faults, const std::vector<Check>& checks) {
  for (const Check& check : checks) {
    for (std::string_view name : check.catches) {
      if (std::count(check.catches.begin(), check.catches.end(), name) != 1) {
        throw std::logic_error(check.id + " lists the fault " + std::string(name) + " twice");
      }
      const auto fault = std::find_if(faults.begin(), faults.end(), [name](const Fault& f) { return f.name == name; });
      if (fault == faults.end()) {
        throw std::logic_error(check.id + " lists the fault " + std::string(name) +
                               ", which fault_matrix() does not hold (fault_matrix.cpp)");
      }
      fault->caught_by.push_back(check.id);
    }
  }
  return faults;
}

const std::vector<Fault>& fault_matrix() {
  static const std::vector<Fault> all = with_cells({
      // The table: faults of the encoding itself.
      {faults::sin_cos_swapped, "sin and cos exchanged in every frequency pair",
       "CONVENTIONS.md fault 3 (wrong layout against the checkpoint: tensorflow/text issue 1122)",
       make_sin_cos_swapped_subject},
      {faults::one_pair_swapped, "sin and cos exchanged in one frequency pair (the middle one)",
       "CONVENTIONS.md fault 3, confined to one pair: a layout slip a whole-table check could miss",
       make_one_pair_swapped_subject},
      {faults::wrong_layout, "interleaved columns where halves are expected, or halves where interleaved are",
       "CONVENTIONS.md fault 3 (tensorflow/text issue 1122, tensor2tensor PR 177)", make_wrong_layout_subject},
      {faults::float32_angles, "the angle p*w computed in float32, then sinf and cosf",
       "CONVENTIONS.md fault 2 (gpt-neox issue 1003, Megatron-LM issue 535; the PyTorch tutorial's float32 angles)",
       make_float32_angle_subject},
      {faults::timescale_rule, "the timescale frequency rule where the paper's is expected",
       "CONVENTIONS.md fault 3 (tensor2tensor PR 177, fairseq issue 4648)", make_timescale_rule_subject},
      {faults::unzeroed_padding, "the convention's zero rows (fairseq's padding row) not zeroed: the zero row missing",
       "CONVENTIONS.md fault 4 (fairseq padding_idx)", make_unzeroed_padding_subject},
      {faults::offset_by_one, "row r holds position r + 1", "CONVENTIONS.md fault 4 (fairseq's padding_idx + 1 start)",
       make_offset_by_one_subject},
      {faults::bfloat16_positions, "integer positions held in bfloat16 before the angle is computed",
       "CONVENTIONS.md fault 1 (pytorch issues 137774 and 114544, transformers issue 28685)",
       make_bfloat16_position_subject},
      {faults::float16_positions, "integer positions held in float16 before the angle is computed",
       "CONVENTIONS.md fault 1 (positions exact only to 2048 in float16; gpt-neox issue 1003)",
       make_float16_position_subject},
      {faults::float16_storage, "the table computed in float16 and handed out as a wider format",
       "CONVENTIONS.md fault 2 (values carry the precision they were computed in)", make_float16_storage_subject},
      {faults::corrupted_row, "the row of position 1 stored with its signs flipped",
       "a single bad row in a cache (a wrong write into a shared buffer)", make_corrupted_row_subject},
      {faults::random_init, "the table overwritten by a random N(0, 1) initialisation",
       "CONVENTIONS.md fault 6 (transformers issue 29807)", make_random_init_subject},
      // The embedding operations: the scale and the concatenation.
      {faults::scale_divided, "the embeddings divided by sqrt(d) instead of multiplied", "CONVENTIONS.md fault 7",
       make_scale_divided_subject},
      {faults::scale_missing, "the sqrt(d) scale left out (E + PE)",
       "CONVENTIONS.md fault 7 (the report's question (a): the scale is easy to miss)", make_scale_missing_subject},
      {faults::scale_applied_twice, "sqrt(d) applied twice (s * s * E + PE)", "CONVENTIONS.md fault 7",
       make_scale_applied_twice_subject},
      {faults::scale_truncated, "sqrt(d) rounded toward zero in the format, not to nearest",
       "CONVENTIONS.md fault 7 (the scale rounded in the activation dtype, wrongly)", make_scale_truncated_subject},
      {faults::scale_rounded_bfloat16, "sqrt(d) rounded to bfloat16 whatever the format",
       "CONVENTIONS.md fault 7 and Gemma's bf16(sqrt(3072)) = 55.5 carried into a wider model",
       make_scale_rounded_bfloat16_subject},
      {faults::embedding_dropped, "the token embedding left out of the sum (PE alone)",
       "the encoding overwhelming the token, taken to its end", make_embedding_dropped_subject},
      {faults::padding_wrong_side, "zero_pad puts the zero block on the wrong side", "the add-as-concat construction",
       make_padding_wrong_side_subject},
      {faults::padding_off_by_one, "zero_pad moves one zero column to the other side", "the add-as-concat construction",
       make_padding_off_by_one_subject},
      {faults::concat_reversed, "concat_embeddings puts the encoding before the token",
       "the add-as-concat construction", make_concat_reversed_subject},
      // Rotary caches (RoPE).
      {faults::rotary_bfloat16_positions, "rotary positions held in bfloat16 before the angle",
       "candle PR 3520 (position 15962 becomes 15936 or 15968)", make_rotary_bfloat16_position_subject},
      {faults::rotary_float16_computation, "the rotary cache built in float16: inv_freq, positions and angles",
       "gpt-neox issue 1003 (cos off by 0.78 at position 1857), modded-nanogpt issue 39",
       make_rotary_float16_computation_subject},
      {faults::rotary_bfloat16_inv_freq, "inv_freq rounded to bfloat16 with the module",
       "Megatron-LM issue 744, InternLM issue 237", make_rotary_bfloat16_inv_freq_subject},
      {faults::rotary_float16_cache, "the rotary cache stored in float16 and handed out wider",
       "transformers issue 25681 and PR 29285", make_rotary_float16_cache_subject},
      {faults::rotary_wrong_base, "rope_theta 10000 where it is 500000, or the reverse",
       "model configs (Llama 2 against Llama 3)", make_rotary_wrong_base_subject},
      {faults::rotary_scaling_ignored, "rope_scaling ignored: the plain rule",
       "transformers modeling_rope_utils.py (llama3, yarn, longrope rules)", make_rotary_scaling_ignored_subject},
      {faults::rotary_cos_sin_swapped, "the cos and sin caches exchanged",
       "a layout slip, as fault 3 of the additive tables", make_rotary_cos_sin_swapped_subject},
      {faults::rotary_attention_factor_missing, "attention_scaling not applied to cos and sin",
       "transformers _compute_yarn_parameters, _compute_longrope_parameters",
       make_rotary_attention_factor_missing_subject},
      {faults::rotary_attention_factor_twice, "attention_scaling applied twice",
       "transformers' attention_scaling, applied once in the rotary module's forward",
       make_rotary_attention_factor_twice_subject},
      // RoPE kernels: the rotation applied to queries and keys.
      {faults::kernel_position_precision, "a kernel holding positions in bfloat16 before the angle",
       "candle PR 3520; transformers issue 28685", make_kernel_position_precision_subject},
      {faults::kernel_angle_precision, "a kernel rounding the angle p theta_i to bfloat16",
       "cactus-compute/cactus PR 688, ml-explore/mlx-lm PR 1076 (angles in a 16-bit format)",
       make_kernel_angle_precision_subject},
      {faults::kernel_inv_freq_precision, "a kernel holding inv_freq in bfloat16",
       "Megatron-LM issue 744, InternLM issue 237", make_kernel_inv_freq_precision_subject},
      {faults::kernel_cache_precision, "a kernel holding cos and sin in bfloat16 whatever the output's format",
       "flashinfer-ai/flashinfer PR 585 (a 16-bit cos/sin cache)", make_kernel_cache_precision_subject},
      {faults::kernel_frequency_accumulation, "a kernel building each pair's angle by repeated float32 multiplication",
       "ggml's rope (theta *= theta_scale)", make_kernel_frequency_accumulation_subject},
      {faults::kernel_fast_trig, "a kernel with approximate sin and cos after a float32 reduction",
       "kekzl/imp PR 1325 (__sinf/__cosf drifting at position 131071)", make_kernel_fast_trig_subject},
      {faults::kernel_layout_mismatch, "a kernel pairing interleaved columns where rotate-half is expected, or the reverse",
       "ggml-org/llama.cpp issue 3018 (NORMAL against NEOX)", make_kernel_layout_mismatch_subject},
      {faults::kernel_wrong_base, "a kernel with rope_theta 10000 where it is 500000, or the reverse",
       "model configs (Llama 2 against Llama 3)", make_kernel_wrong_base_subject},
      {faults::kernel_wrong_scaling, "a kernel ignoring rope_scaling (the plain rule's frequencies)",
       "transformers modeling_rope_utils.py (llama3, yarn, longrope rules)", make_kernel_wrong_scaling_subject},
      {faults::kernel_direction, "a kernel rotating by -theta", "a sign slip in sin (rotate_half's order)",
       make_kernel_direction_subject},
      {faults::kernel_attention_factor, "a kernel leaving the attention factor out",
       "transformers' attention_scaling (YaRN, LongRoPE)", make_kernel_attention_factor_subject},
      {faults::kernel_partial_width, "a kernel rotating half the rotary width",
       "partial_rotary_factor applied twice (GPT-NeoX rotary_pct, Phi)", make_kernel_partial_width_subject},
      {faults::kernel_partial_factor_ignored, "a kernel rotating the whole head where partial_rotary_factor says a part",
       "AI-Hypercomputer/maxtext issue 4616 (partial_rotary_factor dropped on the M-RoPE path, Qwen3.5)",
       make_kernel_partial_factor_ignored_subject},
      {faults::kernel_proportional_partial,
       "a kernel spreading a partial rotary's frequencies over head_dim and pairing across the whole head",
       "pie-project/pie PR 603 (the proportional form where the rotary width's is expected)",
       make_kernel_proportional_partial_subject},
      {faults::kernel_mrope_position_delta, "an M-RoPE kernel whose ids after an image are one ahead",
       "vllm 16878 (M-RoPE position ids off by one)", make_kernel_mrope_position_delta_subject},
  }, all_checks());
  return all;
}

const std::vector<Fault>& escaping_faults() {
  // Measured: at quick, standard and full sweeps no check fails it. The
  // sweeps sample about 10^5 to 10^6 entries, so a damaged entry in 10^6 is
  // met by chance at best; only an exhaustive comparison would catch it.
  static const std::vector<Fault> all = {
      {faults::one_ulp_noise, "one entry in a million moved 1 ULP away from zero",
       "the smallest damage a stored value can take, rarely: what a sampled check misses", make_one_ulp_noise_subject},
  };
  return all;
}

std::vector<std::string> faults_caught_by(std::string_view check_id) {
  std::vector<std::string> names;
  for (const Fault& fault : fault_matrix()) {
    for (std::string_view id : fault.caught_by) {
      if (id == check_id) names.emplace_back(fault.name);
    }
  }
  return names;
}

}  // namespace pecheck::properties
