// `pecheck validate OUT.npy --input IN.npy --positions POS.npy`: rotated
// queries or keys (a kernel's output) against the exact rotation of its input
// (reference/rotated_reference.hpp) and the computation models published code
// follows (reference/rotated_models.hpp), with the layout, direction,
// frequencies, rotary width, positions and attention factor read from the
// data, and the faults of CONVENTIONS.md ("Applying the rotation") diagnosed.

#pragma once

#include <cstdint>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "pecheck/format.hpp"
#include "pecheck/npy_array.hpp"
#include "pecheck/rotary_convention.hpp"
#include "pecheck/table.hpp"
#include "pecheck/validate/held_tensor.hpp"
#include "pecheck/validate/rotated_findings.hpp"
#include "pecheck/validate/validation.hpp"

namespace pecheck::validate {

// TransformerEngine's and flash-attn's names of a q/k tensor's axes: s (or
// t, packed tokens) is the sequence axis.
enum class QkvFormat { sbhd, bshd, bhsd, thd };
std::optional<QkvFormat> parse_qkv_format(std::string_view name);
std::string_view to_string(QkvFormat format);

struct RotatedSubject {
  HeldTensor output;  // OUT: the kernel's output
  HeldTensor input;   // IN: its input, the same shape
  NpyArray positions;    // POS: one position per token along the sequence axis
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
  // M-RoPE (POS of shape (3, L), or (3, B, L) with one row of ids per batch
  // entry): the temporal, height and width id of each row, three vectors of
  // rows entries (row_position is the temporal one). Empty for a 1-D POS.
  std::vector<std::vector<std::int64_t>> mrope_position;
  // Whether the three ids differ somewhere (an image or video token); with
  // the same ids in each row (text) M-RoPE is the unsectioned rule.
  bool mrope_ids_differ = false;
};

// The sequence axis is the one axis (not the last) whose length is POS's
// (its last axis for M-RoPE's (3, L) and (3, B, L); B is then the batch axis,
// axis 1 when the sequence is axis 0, else axis 0);
// --qkv-format names it when several are. Throws ValidationInputError with a
// message naming the files: shapes that differ, POS not one-dimensional (or
// (3, L), (3, B, L)) or not whole numbers in [0, 2^24), no axis of POS's
// length, or several (refused, never guessed, with the --qkv-format names to
// choose from), a B that is not the batch axis's length.
RotatedTokens resolve_tokens(const RotatedSubject& subject, std::optional<QkvFormat> qkv_format);

struct RotatedOptions {
  std::optional<RotaryConvention> convention;  // --rope PRESET or --config
  std::optional<RotaryLayout> layout;          // --layout: expected pairing
  std::optional<QkvFormat> qkv_format;
  std::optional<double> max_ulp;           // default: the third-party budget of the format
  std::string angle_model = "hf-float32";  // the angle the computation models use
  int threads = 0;
};

// Throws ValidationInputError (resolve_tokens) and ConventionError.
Validation validate_rotated_output(const RotatedSubject& subject, const RotatedOptions& options = {});

}  // namespace pecheck::validate
