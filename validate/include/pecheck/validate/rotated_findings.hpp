// What validating a rotated output finds beyond what every kind has
// (validation.hpp): the pairing, rotary width, direction, frequencies,
// positions and attention factor read from the data, and the properties of
// its own values.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "pecheck/format.hpp"
#include "pecheck/properties/rotated_properties.hpp"
#include "pecheck/rotary_convention.hpp"

namespace pecheck::validate {

// A property of the subject's own outputs, with its derived bound: the
// checks' own type (properties/rotated_properties.hpp), which computes them.
using RotatedProperty = properties::RotatedProperty;

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
};

}  // namespace pecheck::validate
