// Which computation of the angles and of cos and sin explains a rotated
// output best: the correct ones (exact; float32 angles; float32 angles with
// the cache cast to the output's format, as transformers does) against each
// fault of CONVENTIONS.md ("Applying the rotation"): positions, angles or
// inv_freq in bfloat16 or float16, cos and sin held in a format coarser than
// the output, ggml's repeated float32 multiplication of the frequencies, and
// a float32 range reduction whose error grows with |angle| (fast sin/cos).
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "pecheck/rotary_convention.hpp"
#include "pecheck/validate/rotated_output.hpp"
#include "rotated_pairing.hpp"

namespace pecheck::validate {

struct ComputationFit {
  std::optional<Hazard> hazard;  // a fault that explains the output, with its figures
  std::optional<Hazard> second;  // a second fault the same computation holds (positions and angles both narrow)
  bool fault_explains = false;          // its RMS distance is under half the correct computations'
  bool plain_setting = false;           // it did so at POS as given, forwards, not as detection read them
};

// Sampled rows (up to 512 spread), every pair of the rotary width: each
// computation's rotation of the input, rounded to `format` once or (as
// transformers does) with cos and sin cast to it and each product and the
// sum rounded there, against the output; RMS distances in the output's
// units. `positions` are the kernel's (POS plus any detected offset),
// `given_positions` POS's; `reversed` rotates by -theta; `factor` is the
// detected attention factor (so that its own fault does not hide these).
ComputationFit diagnose_computation(const RotatedValues& values, const std::vector<std::int64_t>& positions,
                                    const std::vector<std::int64_t>& given_positions, RotaryLayout layout,
                                    std::int64_t width, const RotaryConvention& convention, FormatId format,
                                    bool reversed, double factor);

}  // namespace pecheck::validate
