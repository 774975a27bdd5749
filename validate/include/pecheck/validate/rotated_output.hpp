// `pecheck validate OUT.npy --input IN.npy --positions POS.npy`: rotated
// queries or keys (a kernel's output) against the exact rotation of its input
// (reference/rotated_reference.hpp) and the computation models published code
// follows (reference/rotated_models.hpp), with the layout, direction,
// frequencies, rotary width, positions and attention factor read from the
// data, and the faults of CONVENTIONS.md ("Applying the rotation") diagnosed.
//
// Until the one Validation type lands, the result is this file's own
// RotatedValidationResult; its findings are the kind-specific part.
#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "pecheck/format.hpp"
#include "pecheck/npy_array.hpp"
#include "pecheck/properties/outcome.hpp"
#include "pecheck/rotary_convention.hpp"
#include "pecheck/validate/rotary_validation.hpp"
#include "pecheck/validate/validation.hpp"

namespace pecheck::validate {

// TransformerEngine's and flash-attn's names of a q/k tensor's axes: s (or
// t, packed tokens) is the sequence axis.
enum class QkvFormat { sbhd, bshd, bhsd, thd };
std::optional<QkvFormat> parse_qkv_format(std::string_view name);
std::string_view to_string(QkvFormat format);

struct RotatedSubject {
  NpyArray output;     // OUT: the kernel's output
  NpyArray input;      // IN: its input, the same shape
  NpyArray positions;  // POS: one position per token along the sequence axis
  std::string output_name = "OUT";
  std::string input_name = "IN";
  std::string positions_name = "POS";
};

// Throws TableFileError naming the file and the field.
RotatedSubject read_rotated_subject(const std::filesystem::path& output, const std::filesystem::path& input,
                                    const std::filesystem::path& positions);

// Where each row of head_dim values sits: its position, from POS along the
// sequence axis.
struct RotatedTokens {
  std::vector<std::int64_t> shape;
  std::int64_t head_dim = 0;
  std::int64_t rows = 0;  // product of every axis but the last
  std::int64_t sequence_axis = 0;
  std::string sequence_axis_note;          // how the axis was found
  std::vector<std::int64_t> row_position;  // rows entries
};

// The sequence axis is the one axis (not the last) whose length is POS's;
// --qkv-format names it when several are. Throws ValidationInputError with a
// message naming the files: shapes that differ, POS not one-dimensional or not
// whole numbers in [0, 2^24), no axis of POS's length, or several (refused,
// never guessed, with the --qkv-format names to choose from).
RotatedTokens resolve_tokens(const RotatedSubject& subject, std::optional<QkvFormat> qkv_format);

enum class RotatedHazardKind {
  position_precision,      // positions held in bf16/fp16 (candle PR 3520)
  angle_precision,         // angles p * inv_freq in fp16/bf16 (cactus PR 688, mlx-lm PR 1076)
  inv_freq_precision,      // inv_freq rounded to bf16/fp16 (Megatron-LM 744, InternLM 237)
  cache_precision,         // cos/sin held in bf16/fp16 before a wider rotation (flashinfer PR 585)
  frequency_accumulation,  // theta *= theta_scale in float32 (ggml)
  fast_trig,               // sin/cos whose error grows with |angle| (kekzl/imp PR 1325)
  layout_mismatch,         // NEOX (rotate-half) against NORMAL (interleaved) (llama.cpp issue 3018)
  wrong_base,
  wrong_scaling,
  direction,             // rotation by -theta
  attention_factor,      // pair norm out / in is not the convention's factor
  partial_width,         // the rotated columns are not the convention's rotary width
  position_offset,       // the angles say POS + k, not POS
  pass_through_changed,  // a column beyond the rotary width differs from the input
  non_finite,
  not_rotated,  // no pairing keeps |out| / |in| constant: not a rotation of IN
};
std::string_view to_string(RotatedHazardKind kind);

struct RotatedHazard {
  RotatedHazardKind kind;
  std::string evidence;
};

// A property of the subject's own outputs, with its derived bound.
struct RotatedProperty {
  std::string claim;  // the sentence printed
  std::string bound;  // the bound's statement
  std::int64_t checked = 0;
  std::int64_t violations = 0;
  double worst_ratio = 0.0;  // largest |deviation| / bound
  bool holds() const { return checked > 0 && violations == 0; }
};

struct RotatedFindings {
  std::vector<std::int64_t> shape;
  std::int64_t sequence_axis = 0;
  std::string sequence_axis_note;
  FormatId format = FormatId::float32;  // the format the output's values have
  std::int64_t head_dim = 0;
  std::int64_t rotary_width = 0;  // columns that rotate (the pairing's width)
  RotaryLayout layout = RotaryLayout::rotate_half;
  double pairing_fraction = 0.0;  // pairs whose |out| / |in| is the factor, for the layout chosen
  bool reversed = false;          // rotation by -theta
  double attention_factor = 1.0;  // median |out| / |in| over the pairs
  std::vector<double> inv_freq;   // fitted radians per position, one per pair (0: unreliable)
  double fitted_base = 0.0;
  std::optional<RotaryConvention> convention;  // given, or detected (at the rotary width)
  std::string convention_note;
  std::int64_t first_position = 0;   // POS's smallest
  std::int64_t position_offset = 0;  // the angles' positions minus POS
  bool frequencies_fitted = false;   // POS covers a run of whole positions
  std::vector<RotatedProperty> properties;
  std::vector<std::string> notes;
};

struct RotatedOptions {
  std::optional<RotaryConvention> convention;  // --rope PRESET or --config
  std::optional<RotaryLayout> layout;          // --layout: expected pairing
  std::optional<QkvFormat> qkv_format;
  std::optional<double> max_ulp;           // default: the third-party budget of the format
  std::string angle_model = "hf-float32";  // the angle the computation models use
  int threads = 0;
};

struct RotatedValidationResult {
  ValidationVerdict verdict = ValidationVerdict::unknown;
  RotatedFindings findings;
  std::vector<RotaryComparison> comparisons;  // the exact rotation, then each computation model
  std::vector<RotatedHazard> hazards;
  std::vector<std::string> reasons;  // why the verdict is not `conforms`
};

// Throws ValidationInputError (resolve_tokens) and ConventionError.
RotatedValidationResult validate_rotated_output(const RotatedSubject& subject, const RotatedOptions& options = {});

std::string rotated_validation_text(const RotatedValidationResult& result, const std::string& file);

}  // namespace pecheck::validate
