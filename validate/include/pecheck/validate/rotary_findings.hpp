// What validating a rotary cache finds beyond what every kind has
// (validation.hpp): what the cache alone shows of its layout, frequencies,
// attention factor and positions.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "pecheck/format.hpp"
#include "pecheck/rotary_convention.hpp"

namespace pecheck::validate {

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
  std::int64_t first_position = 0;     // the position file row 0 holds (the one given, if one was)
  // Where the angles place row 0 under the convention settled, whether or not
  // a first position was given (nullopt: no convention settled).
  std::optional<std::int64_t> placed_position;
  std::int64_t identical_pairs = 0;    // successive identical rows: a correct cache has none
  std::optional<FormatId> positions_held_in;
  std::vector<std::string> notes;      // become the validation's notes
};

struct RotaryFindings {
  std::int64_t rows = 0;
  std::int64_t cols = 0;
  FormatId format = FormatId::float32;  // the format compared in
  RotaryDetection detection;
  // The convention compared against (the detected layout when none was
  // given), when one was settled: what the report's rotary checks use.
  std::optional<RotaryConvention> compared_convention;
};

}  // namespace pecheck::validate
