// A rotary cache as a framework computes it, evaluated in double for the
// diagnosis: which computation (inv_freq, positions, angles in which format;
// the attention factor applied how often) explains a cache best. The
// verdict itself is the correctly rounded reference's
// (reference/rotary_reference.hpp); these values only have to be far more
// accurate than the differences between the computations they tell apart.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "pecheck/format.hpp"
#include "pecheck/rotary_convention.hpp"

namespace pecheck::properties {

struct RotaryComputation {
  std::string name;                  // "exact", "positions in bfloat16", ...
  std::optional<FormatId> inv_freq;  // nullopt: exact (double)
  std::optional<FormatId> position;
  std::optional<FormatId> angle;
};

// inv_freq_i by the convention's rule (rotary_frequency.hpp), every operation
// in double, or rounded to float32 after each operation as float tensors do;
// a narrower format rounds that float32 buffer once, as casting a module does.
std::vector<double> rotary_inv_freqs(const RotaryConvention& convention, std::optional<FormatId> format);

// Entry i of row r at index r * n + i (n frequencies, not columns), times
// `attention_factor`, for the positions listed.
struct RotaryValues {
  std::int64_t frequencies = 0;
  std::vector<double> cos;
  std::vector<double> sin;
};
RotaryValues rotary_values(const RotaryConvention& convention, const std::vector<std::int64_t>& positions,
                           const RotaryComputation& computation, double attention_factor);

}  // namespace pecheck::properties
