// `pecheck validate cos.npy --sin sin.npy`: a third-party rotary cache (RoPE)
// against the correctly rounded reference of the convention it holds (given by
// a config.json or a preset, or detected from the cache), with the faults of
// CONVENTIONS.md ("Rotary encodings (RoPE)") diagnosed from the cache itself.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "pecheck/format.hpp"
#include "pecheck/accuracy/measurement.hpp"
#include "pecheck/rotary_convention.hpp"
#include "pecheck/table.hpp"
#include "pecheck/validate/validation.hpp"

namespace pecheck::validate {

enum class RotaryHazardKind {
  position_precision,    // positions held in bf16/fp16 (candle PR 3520)
  angle_precision,       // angles p * inv_freq in a low precision (gpt-neox issue 1003)
  inv_freq_precision,    // inv_freq rounded to the activation dtype (Megatron-LM 744, InternLM 237)
  wrong_base,            // the frequencies follow another rope_theta than the convention's
  wrong_scaling,         // the frequencies follow another scaling rule than the convention's
  cos_sin_swapped,       // the cos table holds the sines and the sin table the cosines
  attention_factor,      // cos^2 + sin^2 is not attention_factor^2: missing or applied twice
  layout_mismatch,       // rotate-half where interleaved was expected, or the other way
  row_offset,            // file row 0 holds another position than the one given
  out_of_range,          // |value| past the attention factor by more than rounding
  non_finite,            // NaN or infinity
  not_rotary,            // no column pairing with cos^2 + sin^2 constant: not a cache
};

struct RotaryHazard {
  RotaryHazardKind kind;
  std::string evidence;  // the figures that show it, in one or two sentences
};

// What the cache alone shows.
struct RotaryDetection {
  bool rotary = false;  // cos^2 + sin^2 is one constant in most entries
  RotaryLayout layout = RotaryLayout::rotate_half;
  std::int64_t frequencies = 0;        // n: distinct frequency columns
  double attention_factor = 1.0;       // the median of sqrt(cos^2 + sin^2)
  double norm_spread = 0.0;            // the largest |sqrt(cos^2 + sin^2) - attention_factor|
  bool swapped = false;                // the angles run backwards: cos and sin exchanged
  std::vector<double> inv_freq;        // fitted radians per row, one per frequency (0 when unreliable)
  std::vector<double> inv_freq_sigma;  // their standard errors
  double fitted_base = 0.0;            // base^(-2i/d) fitted to the unscaled fast frequencies
  std::optional<RotaryConvention> convention;  // the candidate that fits best (or the one given)
  std::string convention_note;         // how it was chosen
  // Detected dynamic NTK: every (preset, factor, L) that builds the same
  // frequencies, the chosen one first; one entry when the cache's last position decided.
  std::vector<RotaryConvention> dynamic_ntk_alternatives;
  std::int64_t first_position = 0;     // the position file row 0 holds
  std::int64_t identical_pairs = 0;    // successive identical rows: a correct cache has none
  std::optional<FormatId> positions_held_in;
  std::vector<std::string> notes;
};

struct RotaryComparison {
  std::string target;                  // "the exact encoding" or the computation model's name
  accuracy::Measurement measurement;  // over the cos and sin tables together (cos first in columns)
  std::int64_t beyond_budget = 0;
  bool conforms = false;
};

struct RotaryValidationOptions {
  std::optional<RotaryConvention> convention;  // --config or --rope: skips detection of the convention
  std::optional<std::int64_t> first_position;  // --offset: skips detection of the row offset
  std::optional<double> max_ulp;               // default: the third-party budget of the format
  std::string model = "hf-float32";            // the computation model compared beside the exact encoding
  int threads = 0;
};

struct RotaryValidationResult {
  ValidationVerdict verdict = ValidationVerdict::unknown;
  std::int64_t rows = 0;
  std::int64_t cols = 0;
  FormatId format = FormatId::float32;
  RotaryDetection detection;
  std::vector<RotaryComparison> comparisons;  // the exact encoding, then the computation model
  std::vector<RotaryHazard> hazards;
  std::vector<std::string> reasons;  // why the verdict is not `conforms`
};

// Throws ValidationInputError for tables that cannot be a cache (shapes that
// differ, no rows, a width no layout has), and ConventionError for a
// convention the cache contradicts in shape.
RotaryValidationResult validate_rotary_cache(const Table& cos, const Table& sin,
                                             const RotaryValidationOptions& options = {});

// `value_format`: the format the values carry (a float32 file of bfloat16
// values: bfloat16), for every tolerance.
RotaryDetection detect_rotary(const Table& cos, const Table& sin, FormatId value_format,
                              const std::optional<RotaryConvention>& given, std::optional<std::int64_t> first_position);

std::string_view to_string(RotaryHazardKind kind);
std::string rotary_validation_text(const RotaryValidationResult& result, const std::string& file);
std::string rotary_validation_json(const RotaryValidationResult& result, const std::string& file);

}  // namespace pecheck::validate
