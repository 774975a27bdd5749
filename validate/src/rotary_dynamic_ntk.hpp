// Dynamic NTK scaling read back from a cache.
//
// transformers' _compute_dynamic_ntk_parameters recomputes the base for the
// current length L > max_position_embeddings:
//   base' = base * (factor * L / max_pos - (factor - 1))^(d / (d - 2)),
// and the cache then follows the unscaled rule with base'. The cache shows
// base' alone, so (factor, L) lie on one curve: factor * (L / max_pos - 1) = X - 1
// with X = (base' / base)^((d - 2) / d). Each pairing of a preset's base and
// max_pos with a factor gives at most one whole L on it; several may, and they
// build the same frequencies. HF's dynamic update takes L = max(position_ids) + 1,
// so a cache of positions up to L - 1 decides among them.
#pragma once

#include <cstdint>
#include <vector>

#include "pecheck/rotary_convention.hpp"
#include "pecheck/validate/rotary_validation.hpp"

namespace pecheck::validate {

// The dynamic NTK conventions (at the cache's width) whose whole length L puts
// base' within reach of the fitted frequencies: for each unscaled preset's
// (base, max_position) and each tried factor, the L nearest the curve
// (refined by the frequency misfit among L - 1, L, L + 1), and the factor that
// puts L at `rows` (the cache from position 0), to 3 significant digits.
std::vector<RotaryConvention> dynamic_ntk_candidates(const RotaryDetection& detection, std::int64_t rows);

// Among `alternatives` (dynamic NTK conventions that fit alike), the one whose
// L is last_position + 1; the index, or -1 when none or several are.
std::int64_t dynamic_ntk_by_length(const std::vector<RotaryConvention>& alternatives, std::int64_t last_position);

// "factor 2, L 6000, trained length 4096, base 10000" for notes.
std::string dynamic_ntk_text(const RotaryConvention& convention);

}  // namespace pecheck::validate
