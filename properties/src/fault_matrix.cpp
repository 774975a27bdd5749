// The fault matrix as data: each fault subject (faulty_subjects.hpp) with the
// checks that must fail on it. The matrix test (properties/tests/
// fault_matrix_test.cpp) proves every cell against the correct fast subject,
// which passes the same checks; a check no row names is an observation.
#include <string_view>

#include "pecheck/properties/check_ids.hpp"
#include "pecheck/properties/faulty_subjects.hpp"

namespace pecheck::properties {

const std::vector<Fault>& fault_matrix() {
  static const std::vector<Fault> all = {
      // The table: faults of the encoding itself.
      {"sin-cos-swapped",
       "sin and cos exchanged in every frequency pair",
       "CONVENTIONS.md fault 3 (wrong layout against the checkpoint: tensorflow/text issue 1122)",
       {check_ids::origin, check_ids::frequency_ladder, check_ids::slow_columns, check_ids::column_energy,
        check_ids::conformance_float64, check_ids::conformance_float32, check_ids::conformance_float16,
        check_ids::conformance_bfloat16, check_ids::any_position, check_ids::accuracy_by_position},
       make_sin_cos_swapped_subject},
      {"one-pair-swapped",
       "sin and cos exchanged in one frequency pair (the middle one)",
       "CONVENTIONS.md fault 3, confined to one pair: a layout slip a whole-table check could miss",
       {check_ids::origin, check_ids::frequency_ladder, check_ids::slow_columns, check_ids::column_energy,
        check_ids::conformance_float64, check_ids::conformance_float32, check_ids::conformance_float16,
        check_ids::conformance_bfloat16, check_ids::any_position, check_ids::accuracy_by_position},
       make_one_pair_swapped_subject},
      {"wrong-layout",
       "interleaved columns where halves are expected, or halves where interleaved are",
       "CONVENTIONS.md fault 3 (tensorflow/text issue 1122, tensor2tensor PR 177)",
       {check_ids::pythagorean_identity, check_ids::origin, check_ids::relative_position, check_ids::frequency_ladder,
        check_ids::slow_columns, check_ids::column_energy, check_ids::conformance_float64,
        check_ids::conformance_float32, check_ids::conformance_float16, check_ids::conformance_bfloat16,
        check_ids::any_position, check_ids::accuracy_by_position},
       make_wrong_layout_subject},
      {"float32-angles",
       "the angle p*w computed in float32, then sinf and cosf",
       "CONVENTIONS.md fault 2 (gpt-neox issue 1003, Megatron-LM issue 535; the PyTorch tutorial's float32 angles)",
       {check_ids::pythagorean_identity, check_ids::squared_norm, check_ids::relative_position,
        check_ids::frequency_ladder, check_ids::slow_columns, check_ids::conformance_float64,
        check_ids::conformance_float32, check_ids::conformance_float16, check_ids::conformance_bfloat16,
        check_ids::any_position, check_ids::accuracy_by_position},
       make_float32_angle_subject},
      {"timescale-rule",
       "the timescale frequency rule where the paper's is expected",
       "CONVENTIONS.md fault 3 (tensor2tensor PR 177, fairseq issue 4648)",
       {check_ids::squared_norm, check_ids::frequency_ladder, check_ids::column_energy, check_ids::conformance_float64,
        check_ids::conformance_float32, check_ids::conformance_float16, check_ids::conformance_bfloat16,
        check_ids::any_position, check_ids::accuracy_by_position},
       make_timescale_rule_subject},
      {"unzeroed-padding",
       "the convention's zero rows (fairseq's padding row) not zeroed: the zero row missing",
       "CONVENTIONS.md fault 4 (fairseq padding_idx)",
       {check_ids::squared_norm, check_ids::zero_rows, check_ids::conformance_float64, check_ids::conformance_float32,
        check_ids::conformance_float16, check_ids::conformance_bfloat16, check_ids::any_position,
        check_ids::accuracy_by_position},
       make_unzeroed_padding_subject},
      {"offset-by-one",
       "row r holds position r + 1",
       "CONVENTIONS.md fault 4 (fairseq's padding_idx + 1 start)",
       {check_ids::squared_norm, check_ids::origin, check_ids::relative_position, check_ids::column_energy,
        check_ids::conformance_float64, check_ids::conformance_float32, check_ids::conformance_float16,
        check_ids::conformance_bfloat16, check_ids::any_position, check_ids::accuracy_by_position},
       make_offset_by_one_subject},
      {"bfloat16-positions",
       "integer positions held in bfloat16 before the angle is computed",
       "CONVENTIONS.md fault 1 (pytorch issues 137774 and 114544, transformers issue 28685)",
       {check_ids::squared_norm, check_ids::relative_position, check_ids::frequency_ladder,
        check_ids::distinct_positions, check_ids::column_energy, check_ids::conformance_float64,
        check_ids::conformance_float32, check_ids::conformance_float16, check_ids::conformance_bfloat16,
        check_ids::any_position, check_ids::accuracy_by_position},
       make_bfloat16_position_subject},
      {"float16-positions",
       "integer positions held in float16 before the angle is computed",
       "CONVENTIONS.md fault 1 (positions exact only to 2048 in float16; gpt-neox issue 1003)",
       {check_ids::squared_norm, check_ids::relative_position, check_ids::frequency_ladder,
        check_ids::conformance_float64, check_ids::conformance_float32, check_ids::conformance_float16,
        check_ids::conformance_bfloat16, check_ids::any_position, check_ids::accuracy_by_position},
       make_float16_position_subject},
      {"float16-storage",
       "the table computed in float16 and handed out as a wider format",
       "CONVENTIONS.md fault 2 (values carry the precision they were computed in)",
       {check_ids::pythagorean_identity, check_ids::squared_norm, check_ids::relative_position,
        check_ids::frequency_ladder, check_ids::slow_columns, check_ids::column_energy, check_ids::conformance_float64,
        check_ids::conformance_float32, check_ids::any_position, check_ids::accuracy_by_position},
       make_float16_storage_subject},
      {"corrupted-row",
       "the row of position 1 stored with its signs flipped",
       "a single bad row in a cache (a wrong write into a shared buffer)",
       {check_ids::relative_position, check_ids::frequency_ladder, check_ids::distinct_positions,
        check_ids::column_energy, check_ids::conformance_float64, check_ids::conformance_float32,
        check_ids::conformance_float16, check_ids::conformance_bfloat16, check_ids::any_position,
        check_ids::accuracy_by_position},
       make_corrupted_row_subject},
      {"random-init",
       "the table overwritten by a random N(0, 1) initialisation",
       "CONVENTIONS.md fault 6 (transformers issue 29807)",
       {check_ids::unit_interval, check_ids::pythagorean_identity, check_ids::squared_norm, check_ids::origin,
        check_ids::zero_rows, check_ids::relative_position, check_ids::frequency_ladder, check_ids::column_energy,
        check_ids::conformance_float64, check_ids::conformance_float32, check_ids::conformance_float16,
        check_ids::conformance_bfloat16, check_ids::any_position, check_ids::accuracy_by_position},
       make_random_init_subject},
      // The embedding operations: the scale and the concatenation.
      {"scale-divided",
       "the embeddings divided by sqrt(d) instead of multiplied",
       "CONVENTIONS.md fault 7",
       {check_ids::scaled_second_moment, check_ids::unit_variance_sampled, check_ids::energy_ratio,
        check_ids::token_recoverability},
       make_scale_divided_subject},
      {"scale-missing",
       "the sqrt(d) scale left out (E + PE)",
       "CONVENTIONS.md fault 7 (the report's question (a): the scale is easy to miss)",
       {check_ids::scaled_second_moment, check_ids::unit_variance_sampled, check_ids::energy_ratio,
        check_ids::token_recoverability},
       make_scale_missing_subject},
      {"scale-applied-twice",
       "sqrt(d) applied twice (s * s * E + PE)",
       "CONVENTIONS.md fault 7",
       {check_ids::scaled_second_moment, check_ids::unit_variance_sampled, check_ids::energy_ratio},
       make_scale_applied_twice_subject},
      {"scale-truncated",
       "sqrt(d) rounded toward zero in the format, not to nearest",
       "CONVENTIONS.md fault 7 (the scale rounded in the activation dtype, wrongly)",
       {check_ids::scale_factor_rounding, check_ids::unit_variance_closed_form},
       make_scale_truncated_subject},
      {"scale-rounded-bfloat16",
       "sqrt(d) rounded to bfloat16 whatever the format",
       "CONVENTIONS.md fault 7 and Gemma's bf16(sqrt(3072)) = 55.5 carried into a wider model",
       {check_ids::scale_factor_rounding, check_ids::unit_variance_closed_form},
       make_scale_rounded_bfloat16_subject},
      {"embedding-dropped",
       "the token embedding left out of the sum (PE alone)",
       "the encoding overwhelming the token, taken to its end",
       {check_ids::scaled_second_moment, check_ids::unit_variance_sampled, check_ids::energy_ratio,
        check_ids::token_recoverability, check_ids::construction, check_ids::strictness},
       make_embedding_dropped_subject},
      {"padding-wrong-side",
       "zero_pad puts the zero block on the wrong side",
       "the add-as-concat construction",
       {check_ids::construction},
       make_padding_wrong_side_subject},
      {"padding-off-by-one",
       "zero_pad moves one zero column to the other side",
       "the add-as-concat construction",
       {check_ids::construction},
       make_padding_off_by_one_subject},
      {"concat-reversed",
       "concat_embeddings puts the encoding before the token",
       "the add-as-concat construction",
       {check_ids::construction, check_ids::linearity},
       make_concat_reversed_subject},
  };
  return all;
}

const std::vector<Fault>& escaping_faults() {
  // Measured: at quick, standard and full sweeps no check fails it. The
  // sweeps sample about 10^5 to 10^6 entries, so a damaged entry in 10^6 is
  // met by chance at best; only an exhaustive comparison would catch it.
  static const std::vector<Fault> all = {
      {"one-ulp-noise",
       "one entry in a million moved 1 ULP away from zero",
       "the smallest damage a stored value can take, rarely: what a sampled check misses",
       {},
       make_one_ulp_noise_subject},
  };
  return all;
}

std::vector<std::string> faults_caught_by(std::string_view check_id) {
  std::vector<std::string> names;
  for (const Fault& fault : fault_matrix()) {
    for (std::string_view id : fault.caught_by) {
      if (id == check_id) names.push_back(fault.name);
    }
  }
  return names;
}

}  // namespace pecheck::properties
