// The typed key of a statistic: what quantity it is, and the format, width
// and position count it was measured at. A check files each statistic under
// its key beside the human label; reports and tests look numbers up by key,
// never by label text, so relabelling a statistic cannot drop it from a
// report, and a renamed or removed quantity is a compile error.
#pragma once

#include <compare>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "pecheck/format.hpp"

namespace pecheck::properties {

enum class Quantity {
  // encoding-bounds
  pythagorean_miss_ratio,    // largest |sin^2 + cos^2 - 1| / bound
  squared_norm_miss_ratio,   // largest | ||PE||^2 - expected | / bound
  rotation_miss_ratio,       // largest rotation miss / bound
  frequency_recovery_error,  // largest |recovered / rule - 1| over every frequency
  first_collision,           // the first position whose row repeats an earlier one
  constant_columns,          // columns holding one value over positions [0, P)
  // conformance
  ulp_error_over_budget,  // largest ULP error / budget
  // scaling-variance: the scale factor
  scale_mismatches,           // widths where embedding_scale(d) is not sqrt(d) correctly rounded
  scale_relative_error,       // largest relative error of sqrt(d) correctly rounded
  scale_at_gemma_width,       // sqrt(3072) as the subject rounds it
  scale_double_roundings,     // widths where rounding float32's sqrt(d) again differs
  closed_form_variance_miss,  // largest |s^2/d - 1| over d
  closed_form_variance,       // s^2/d at one width
  // scaling-variance: sampled moments and energy
  scaled_component_variance,    // Var(s*E) per component, sigma = d^-0.5, s = sqrt(d)
  scaled_component_mean,        // mean of s*E per component
  unscaled_component_variance,  // Var(E) per component
  encoding_energy,              // mean ||PE(p)||^2
  energy_ratio_scaled,          // E||s e||^2 / ||PE||^2, s = sqrt(d)
  energy_ratio_unscaled,        // E||e||^2 / ||PE||^2
  // scaling-variance: recoverability
  recovered_position_unknown_unscaled,
  recovered_position_unknown_scaled,
  recovered_position_known_unscaled,
  rounding_loss_unscaled,  // RMS relative embedding lost to rounding the sum, no scale
  rounding_loss_scaled,
  // scaling-variance: attention and tied logits
  unit_logit_variance,            // Var(q.k / sqrt(d_k)), unit-variance q and k
  unit_logit_variance_undivided,  // Var(q.k)
  input_variance_scaled,          // component variance of s*E + PE
  input_variance_unscaled,        // component variance of E + PE
  logit_variance_both_scales,     // input scaled, / sqrt(d_k)
  logit_variance_input_scale_only,
  logit_variance_attention_scale_only,
  logit_variance_neither_scale,
  input_scale_logit_factor,      // what sqrt(d) multiplies the logit variance by
  attention_scale_logit_factor,  // what 1/sqrt(d_k) multiplies it by
  both_over_neither,             // both scales / neither: 1 if they cancelled
  tied_logit_variance,           // Var(h.E^T), sigma = d^-0.5
  flax_logit_variance,           // sigma = 1, no division
  flax_logit_variance_divided,   // sigma = 1, divided by sqrt(d)
  tied_input_variance,           // s^2 sigma^2 with the same table
  // add-vs-concat
  token_difference_rank,
  position_difference_rank,
  splits_excluded,  // splits d = d_t + d_p no concatenation reproduces
  largest_cosine,   // largest |cos(s*E[t], PE[p])|
  rms_cosine_scaled,
  column_variance_miss,    // largest deviation of a column's variance from the reference's
  quiet_columns_scaled,    // columns varying by < 1% of the scaled embedding's variance
  quiet_columns_unscaled,  // columns varying by < 1% of the unscaled embedding's variance
  first_quarter_share,     // the encoding's variance in the first quarter of columns
  last_quarter_share,
  // scaling-variance: the first layer's logits over independent draws
  first_layer_logit_variance_scaled,    // q.k / sqrt(d_k), s = sqrt(d)
  first_layer_logit_variance_unscaled,  // q.k / sqrt(d_k), s = 1
  first_layer_both_over_neither,        // both scales / neither
  token_token_share_scaled,             // shares of the logit variance by source
  cross_share_scaled,
  position_position_share_scaled,
  position_position_share_unscaled,
  cross_share_unscaled,
  pre_ln_logit_variance_scaled,  // LayerNorm before attention
  pre_ln_logit_variance_unscaled,
  // the same against the scale s = d^a (key.scale_exponent = a)
  logit_variance_at_scale,
  token_token_share_at_scale,
  cross_share_at_scale,
  position_position_share_at_scale,
  // scaling-variance: initialisations
  init_scaled_variance,  // Var(s*E) under one initialisation
  init_energy_ratio,     // E||s e||^2 / ||PE||^2 under it
  init_encoding_share,   // the encoding's share of the input's energy under it
  // add-vs-concat: the encoding's subspace against context length
  subspace_token_share,    // a random token's energy share in the encoding's 99%-energy subspace
  subspace_dimension,      // dimensions holding 99% of the encoding's energy
  numerical_rank_loose,    // singular values above 1e-2 of the largest
  numerical_rank_float32,  // singular values above 1e-6 of the largest
  quiet_columns_over_context,
  // scaling-variance: recoverability against the scale with a realistic vocabulary
  recovered_token_naive,     // nearest row of s*E, the encoding ignored
  recovered_position_naive,  // nearest row of PE, the embedding ignored
  recovered_token_joint,     // the token of the nearest sum s*E[t] + PE[p] over all (t, p)
  recovered_position_joint,  // the position of that sum
  joint_pairs_scored,        // (t, p) pairs the exact joint search scored per query, over V x P
  // scaling-variance: one embedding table's statistics (vocabulary_statistics.hpp)
  vocabulary_energy_ratio,
  vocabulary_subspace_share,
  vocabulary_token_token_share,
  vocabulary_cross_share,
  vocabulary_position_position_share,
  // rotary
  rotary_relative_position_miss_ratio,  // largest |q_m.k_n - exact| / bound
  rotary_pair_norm_miss_ratio,          // largest |cos^2 + sin^2 - A^2| / bound
  // rotary: adding, concatenating and rotating side by side (first-layer logits)
  added_relative_share,  // share of the position-driven logit variance m - n explains
  concatenated_relative_share,
  rotated_relative_share,
  added_interaction_share,  // share of the logit variance from token x position interaction
  concatenated_interaction_share,
  rotated_interaction_share,
  added_position_share,  // share of the logit variance the positions explain alone
  concatenated_position_share,
  rotated_position_share,
  // conformance: the tutorials' float32 angles on the accuracy sweep's rows,
  // their result rounded to each format (the accuracy table's comparison)
  float32_angle_max_ulp,
  float32_angle_rms_ulp,
  float32_angle_abs_error,  // the largest absolute error of the float32 angles per block (a Series)
  // scaling-variance: the energy ratio at each width d (the figure's sweep)
  energy_ratio_scaled_at_width,
  energy_ratio_unscaled_at_width,
  // add-vs-concat/encoding-subspace, over positions [0, P): decoders that do not know the
  // position, the mean row's part of the energy, and each column's mean square
  recovered_projected_unscaled,        // nearest row after projecting x and E off the 99%-energy subspace, s = 1
  recovered_mean_subtracted_unscaled,  // nearest row of E to x minus the mean encoding row, s = 1
  mean_row_energy_share,               // |mean_p PE(p)|^2 / mean_p |PE(p)|^2
  cross_varying_share_closed,          // token x (PE - mean row) share of the logit variance at s^2 sigma^2 = 1
  column_mean_square_min,              // the least mean square of one column over the positions
  column_mean_square_max,
  // rotary/add-concat-rotate with random N(0, 1/d) projections W_q, W_k (mean over draws)
  concatenated_relative_share_projected,
  concatenated_interaction_share_projected,
  // training: runs over seeds (key.run names task/norm/configuration, key.step the step)
  training_accuracy_at_step,  // held-out answer tokens right at key.step, mean over seeds
  training_final_accuracy,    // the same at the last step
  training_steps_to_90,       // the first step measured at 90% or more (the last step if never)
  training_final_loss,        // held-out cross-entropy at the last step
  training_parameters,        // trained parameters of the configuration
  training_accuracy_gain,     // mean accuracy of one configuration minus another's at key.step
  training_welch_p,           // Welch's two-sided p for that difference
  training_repeat_difference, // largest |difference| between two runs with the same seed
  training_accuracy_lower_limit,  // one-sided 99% lower confidence limit of the mean final accuracy
};

// The embedding initialisations implementations use (scaling_initialisation.cpp).
enum class InitScheme { paper, keras_uniform, torch_normal, xavier_8192, xavier_32000 };
std::string_view to_string(InitScheme scheme);

// A stable identifier ("scaled-component-variance"), for messages and JSON.
std::string_view to_string(Quantity quantity);

struct StatisticKey {
  Quantity quantity = Quantity::ulp_error_over_budget;
  std::optional<FormatId> format{};            // the format measured in, when the quantity is per format
  std::int64_t dim = 0;                        // the width d, when a check measures the quantity at several
  std::int64_t positions = 0;                  // P of a count over P consecutive positions, when it has several
  std::string convention{};                    // the preset measured, when a check measures several
  std::optional<InitScheme> initialisation{};  // the initialisation, when a check compares several
  double scale_exponent = 0.0;                 // a in s = d^a, when a check sweeps the scale
  // The sizes a sentence quotes beside the value, so it reads them from the
  // key rather than repeating the check's constants: d_k of the attention
  // heads, V of the vocabulary drawn (0 when the quantity has none).
  std::int64_t head_dim = 0;
  std::int64_t vocabulary = 0;
  // A training statistic's runs, "reverse/post-ln/paper", or two
  // configurations compared, "reverse/post-ln/unit-scaled-vs-paper"; and the
  // training step it was measured at (0 when it has none).
  std::string run{};
  std::int64_t step = 0;

  friend bool operator==(const StatisticKey&, const StatisticKey&) = default;
};

// "constant-columns [vaswani, float32, d = 512, P = 64]", for a loud failure's message.
std::string to_string(const StatisticKey& key);

// Key constructors that read as the measurement: per_format(q, f), at_width(q, f, d).
inline StatisticKey key_of(Quantity quantity) { return {quantity, std::nullopt, 0, 0, {}, std::nullopt, 0.0}; }
inline StatisticKey per_format(Quantity quantity, FormatId format) {
  return {quantity, format, 0, 0, {}, std::nullopt, 0.0};
}
inline StatisticKey at_width(Quantity quantity, FormatId format, std::int64_t dim) {
  return {quantity, format, dim, 0, {}, std::nullopt, 0.0};
}
// The key with the attention heads' width d_k it was measured with.
inline StatisticKey with_head_dim(StatisticKey key, std::int64_t head_dim) {
  key.head_dim = head_dim;
  return key;
}

}  // namespace pecheck::properties
