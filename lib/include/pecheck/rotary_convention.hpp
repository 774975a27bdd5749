// A rotary position embedding (RoPE) convention, as data.
//
// A rotary cache is a pair of tables, cos and sin: entry (row, column) is
//   attention_factor * cos(p * inv_freq_i)   (and the same with sin)
// for the row's position p = first_position + row and the column's frequency
// i. Everything that decides inv_freq_i (base, rotary width, scaling rule) and
// the attention factor is a field here; no code switches on a preset's name.
// The frequency rule itself is written once, in rotary_frequency.hpp, and
// evaluated from these fields by the fast path (double-double) and the
// reference (MPFR).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "pecheck/convention.hpp"
#include "pecheck/format.hpp"

namespace pecheck {

enum class RotaryLayout {
  rotate_half,   // (L, d): columns c and c + d/2 share frequency c (transformers' rotate_half, GPT-NeoX)
  interleaved,   // (L, d): columns 2i and 2i + 1 share frequency i (GPT-J, repeat_interleave)
  complex_form,  // (L, d/2): column i holds frequency i, the real and imaginary parts of
                 // Meta's precompute_freqs_cis polar(1, freqs) as the cos and sin tables
};

// The scaling rules of transformers' modeling_rope_utils.py (function names in
// rotary_convention.cpp beside each preset and in docs/CONVENTIONS.md).
enum class RotaryScalingKind {
  none,         // inv_freq_i = base^(-2i/d)
  linear,       // inv_freq_i / factor
  ntk,          // base' = base * factor^(d/(d-2))
  dynamic_ntk,  // base' = base * (factor L / max_pos - (factor - 1))^(d/(d-2)) for the current length L > max_pos
  yarn,         // blend of inv_freq / factor and inv_freq by a linear ramp over dims; attention factor
  longrope,     // inv_freq_i = 1 / (ext_i base^(2i/d)), ext = long or short factors; attention factor
  llama3,       // wavelength bands: keep above high_freq, divide by factor below low_freq, blend between
  fitted,       // inv_freq_i given one by one (a rule no preset has, fitted from a cache); 0: a pair that never rotates
};

struct RotaryScaling {
  RotaryScalingKind kind = RotaryScalingKind::none;
  double factor = 1.0;
  // original_max_position_embeddings (yarn, longrope, llama3); for dynamic NTK
  // the max_position_embeddings the model was trained at.
  std::int64_t original_max_position = 0;
  double low_freq_factor = 1.0;          // llama3
  double high_freq_factor = 4.0;         // llama3
  double beta_fast = 32.0;               // yarn
  double beta_slow = 1.0;                // yarn
  bool truncate = true;                  // yarn: the ramp's ends floored / ceiled to whole dims (HF's default)
  // yarn: the share of the ramp's extrapolation weight kept, ggml's
  // ext_factor in (0, 1] (rope_yarn mixes theta_interp (1 - e r) + theta_extrap e r);
  // 1, YaRN in full, is HF's and every config.json's.
  double extrapolation_mix = 1.0;
  std::optional<double> mscale;          // yarn (DeepSeek-style); absent in most configs
  std::optional<double> mscale_all_dim;  // yarn
  std::vector<double> long_factor;       // longrope, one per frequency
  std::vector<double> short_factor;      // longrope, one per frequency
  std::vector<double> inv_freq;          // fitted: inv_freq_i in radians per position, one per frequency
  // The current sequence length: dynamic NTK's L (0: the trained length, no
  // change); longrope uses long_factor when it exceeds original_max_position.
  std::int64_t sequence_length = 0;
};

// Which columns a partial rotary (rotary_fraction < 1) rotates, and over
// which width its frequencies are spread.
enum class PartialRotaryForm {
  // transformers' default (every rule but "proportional"; GPT-NeoX, Phi-2,
  // Qwen3-Next, GLM): the first d = int(head_dim * fraction) columns rotate with
  // base^(-2i/d), paired within d, and the rest of the head passes through.
  truncated,
  // rope_type "proportional" (transformers' _compute_proportional_rope_parameters,
  // Gemma 4's full-attention layers): base^(-2i/head_dim) for the first
  // int(fraction * head_dim // 2) pairs and inv_freq 0 for the others, paired
  // across the whole head (i, i + head_dim/2): the cache is head_dim wide.
  // The truncated form computed this way is pie-project/pie PR 603's fault.
  proportional,
};

struct RotaryConvention {
  std::string name;    // the preset name, or a description
  std::string source;  // where every value comes from (model config, HF function, paper)
  RotaryLayout layout = RotaryLayout::rotate_half;
  double base = 10000.0;  // rope_theta
  std::int64_t head_dim = 128;
  double rotary_fraction = 1.0;  // partial_rotary_factor / rotary_pct
  PartialRotaryForm partial_form = PartialRotaryForm::truncated;
  RotaryScaling scaling;
  // Multiplies cos and sin. Absent: derived from the scaling rule as HF does
  // (yarn: 0.1 ln(factor) + 1; longrope: sqrt(1 + ln(factor) / ln(original)); 1 otherwise).
  std::optional<double> attention_factor;
  std::int64_t max_position = 0;  // max_position_embeddings (informational; longrope's factor)
  // The width d_qk whose d_qk^-1/2 the attention softmax scales by (0: head_dim).
  // DeepSeek's heads are wider than their rotary part: qk_nope_head_dim +
  // qk_rope_head_dim (192), of which qk_rope_head_dim (64) rotates.
  std::int64_t query_key_dim = 0;
  // M-RoPE (Qwen2-VL's rope_scaling "mrope"): the frequencies split into
  // sections [temporal, height, width], each driven by its own position id:
  // in runs (Qwen2-VL), or interleaved (Qwen3-VL's mrope_interleaved:
  // frequency j with j mod 3 = 1 below 3 * height takes the height id, j mod
  // 3 = 2 below 3 * width the width id, every other the temporal id). With
  // one position id for all three, as for text, the cache is the unsectioned
  // rule's. Empty: no sections.
  std::vector<std::int64_t> mrope_section;
  bool mrope_interleaved = false;
  // The attention layers this convention is for, when a config gives several
  // (Gemma 3: "full_attention" and "sliding_attention"); empty when one.
  std::string layer_type;
};

// Values HF derives in Python floats (double) from the convention before any
// tensor is built. The exact encoding is defined from these doubles (as the
// model defines it), so the reference and the fast path share them.
struct RotaryDerived {
  std::int64_t dims = 0;            // rotary width d = int(head_dim * fraction), even
  std::int64_t frequencies = 0;     // d / 2
  // The frequencies that rotate: d / 2, or the proportional form's
  // int(fraction * head_dim // 2) (its d is head_dim; the others have inv_freq 0).
  std::int64_t rotated_frequencies = 0;
  double effective_base = 10000.0;  // base, or NTK's / dynamic NTK's scaled base, in double
  double attention_factor = 1.0;    // explicit, or derived per the scaling rule, in double
  double yarn_low = 0.0;            // yarn's ramp: ext weight 1 below low, 0 above high (dims)
  double yarn_high = 0.0;
  const std::vector<double>* ext_factors = nullptr;  // longrope: the long or the short factors
  // The softmax scale of the attention logits the model derives beside the
  // cache: d_qk^-1/2, times get_mscale(factor, mscale_all_dim)^2 for a yarn
  // rule with a nonzero mscale_all_dim (DeepSeek-V2/V3's attention; transformers
  // issue 47435), in double.
  double softmax_scale = 0.0;
};

// Throws ConventionError naming the field for a convention no rule can build
// (base not > 1, head_dim < 2, fraction outside (0, 1], an odd or zero rotary
// width, a factor not > 0, longrope factors of the wrong length, ...).
void check_rotary_convention(const RotaryConvention& convention);
RotaryDerived rotary_derived(const RotaryConvention& convention);
// Throws ConventionError naming the field and the accepted range when the
// convention's results cannot be finite or meaningful: an inv_freq outside
// [2^-126, pi] radians per position, or an attention factor outside
// [2^-14, 65504] (why: rotary_ranges.cpp). Checked when a config.json is read
// and before any cache is built; rotary_derived alone does not (it is called
// per column).
void check_rotary_results(const RotaryConvention& convention);

// M-RoPE: which of the three position ids (0 temporal, 1 height, 2 width)
// drives frequency i (see mrope_section); 0 for a convention without sections.
std::int64_t mrope_position_row(const RotaryConvention& convention, std::int64_t frequency);

// Columns of each table: d for rotate_half and interleaved, d/2 for complex_form.
std::int64_t rotary_columns(const RotaryConvention& convention);
// The frequency index of a column (see RotaryLayout).
std::int64_t rotary_column_frequency(const RotaryConvention& convention, std::int64_t column);

// How a framework computes the cache, for the computation-model oracle
// (reference/rotary_reference.hpp defines the value exactly):
//   inv_freq_i in `inv_freq` format: `stepwise` follows HF's tensor code
//     (e.g. 1.0 / (base ** (arange(0, d, 2).float() / d))) with every
//     operation correctly rounded to the format; `correctly_rounded` rounds
//     the exact inv_freq_i once;
//   the position p rounded to `position`;
//   the angle RN_angle(p_r * inv_freq_r): an exact product, rounded once;
//   the output RN_out(RN_angle(attention_factor) * cos(angle)), from the exact
//     cos of that binary angle.
enum class InvFreqRule { stepwise, correctly_rounded };

struct ComputationModel {
  std::string name;
  std::string description;
  FormatId inv_freq = FormatId::float32;
  FormatId position = FormatId::float32;
  FormatId angle = FormatId::float32;
  InvFreqRule inv_freq_rule = InvFreqRule::stepwise;
};

// "hf-float32" (transformers: float32 inv_freq step by step, float32
// positions and angles), "float64" (the same in double), ...
const std::vector<ComputationModel>& computation_models();
std::optional<ComputationModel> find_computation_model(std::string_view name);

// What a framework's own libm may do that a computation model (every operation
// correctly rounded) does not: its inv_freq_i within this relative distance of
// the model's, 2^(2-q) for the q significant bits of the model's inv_freq
// format (derived in lib/src/numbers/rotary_convention.cpp). pecheck validate
// lets an entry's angle move by it; the rotary checks bound a cache judged
// against the model with it.
double libm_inv_freq_allowance(const ComputationModel& model);

// The presets (llama2, llama3, llama3.1, qwen2, mistral, gpt-neox, gpt-j,
// meta-complex, phi3-longrope, yarn, ...), each with its source.
const std::vector<RotaryConvention>& rotary_presets();
std::optional<RotaryConvention> find_rotary_preset(std::string_view name);

// One line of plain text: layout, base, widths, scaling and attention factor.
std::string describe(const RotaryConvention& convention);

std::string_view to_string(RotaryLayout layout);
std::string_view to_string(RotaryScalingKind kind);
std::string_view to_string(PartialRotaryForm form);
std::optional<RotaryLayout> parse_rotary_layout(std::string_view name);  // "rotate-half", "interleaved", "complex"

}  // namespace pecheck
