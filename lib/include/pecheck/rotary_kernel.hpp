// A subject that applies the rotation itself, as a RoPE kernel does: given
// queries or keys and the position of each row, it returns them rotated. An
// interface beside Subject (a subject offers it by deriving from both), so
// that the checks on a kernel's own outputs (properties/rotated_checks.cpp)
// find it with rotary_kernel_of and call the same operation on pecheck's fast
// implementation, a deliberately faulty kernel, a command or an output file.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "pecheck/rotary_convention.hpp"
#include "pecheck/subject.hpp"
#include "pecheck/table.hpp"

namespace pecheck {

// What a subject that holds one rotation (an output file with its input and
// positions) can answer: exactly these rows, under this convention.
struct HeldRotation {
  RotaryConvention convention;          // with the layout and rotary width read from the data
  TableView input;                      // rows x head_dim, in the input's format
  std::vector<std::int64_t> positions;  // the kernel's position of each row
  // M-RoPE ids that differ: the temporal, height and width id of each row
  // (pair i turns by mrope_position_row's); empty: every pair at positions.
  std::vector<std::vector<std::int64_t>> mrope_positions;
  FormatId format = FormatId::float32;  // the format the output's values have
};

class RotaryKernel {
 public:
  virtual ~RotaryKernel() = default;
  // Row r of `input` (head_dim = its columns, any format) rotated at
  // positions[r] by the convention: the rotary columns rotated pair by pair,
  // the others passed through, every entry in `format`. Throws SubjectError
  // when the kernel cannot (a held rotation asked for other rows).
  virtual Table rotate(const RotaryConvention& convention, const TableView& input,
                       std::span<const std::int64_t> positions, FormatId format) const = 0;
  // The one rotation a file holds; nullopt: any rows at any positions.
  virtual std::optional<HeldRotation> held_rotation() const { return std::nullopt; }
};

// The subject's rotation, or nullptr when it does not apply rotations.
inline const RotaryKernel* rotary_kernel_of(const Subject& subject) {
  return dynamic_cast<const RotaryKernel*>(&subject);
}

// The two columns of pair i at rotary width `width`: (i, i + width/2) for
// rotate-half, (2i, 2i + 1) for interleaved and the complex form.
inline std::pair<std::int64_t, std::int64_t> rotary_pair_columns(RotaryLayout layout, std::int64_t width,
                                                                 std::int64_t i) {
  if (layout == RotaryLayout::rotate_half) return {i, i + width / 2};
  return {2 * i, 2 * i + 1};
}

// An output file as a kernel holding one rotation: `held` (its input, the
// kernel's positions, the convention read from the data) and `output`, both
// views the caller keeps alive as long as the subject. Asked for any other
// rows it throws SubjectError.
std::unique_ptr<Subject> make_rotated_file_subject(std::string name, HeldRotation held, const TableView& output);

// The exact rotation by pecheck's fast rotary cache (exact cos and sin in
// float64, attention factor included), each output computed in double and
// rounded once to `format`: within the format's half ULP plus 2^-50 relative
// of the exact value. Throws ConventionError for a position outside [0, 2^24)
// or an input narrower than the convention's rotary width.
Table fast_rotate(const RotaryConvention& convention, const TableView& input, std::span<const std::int64_t> positions,
                  FormatId format);

}  // namespace pecheck
