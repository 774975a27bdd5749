// How well a rule's inv_freq explains the frequencies fitted from a cache,
// and the rules worth trying when nothing says which one the cache follows.
#pragma once

#include <optional>
#include <vector>

#include "pecheck/format.hpp"
#include "pecheck/properties/rotary_values.hpp"
#include "pecheck/rotary_convention.hpp"
#include "pecheck/validate/rotary_validation.hpp"

namespace pecheck::validate {

// The double evaluation of a computation is shared with the rotary fault subjects.
using properties::RotaryComputation;
using properties::rotary_inv_freqs;
using properties::rotary_values;
using properties::RotaryValues;

// The median squared z-score (|fitted - rule| less 2 float32 ULP of the
// rule) / sigma over the frequencies the fit measured reliably (sigma < 5% of
// the value); infinity when none was. A rule the cache follows scores about
// 1 or less; one a relative 2^-9 off (inv_freq in bfloat16) scores orders of
// magnitude more, since 2048 rows pin a frequency to about 10^-9 relative.
double frequency_misfit(const RotaryDetection& detection, const std::vector<double>& inv_freq);

// A misfit past this is a frequency the rule does not give: a rule the cache
// follows scores about 1 or less, and z = 10 for half the frequencies is far
// beyond chance, yet well below what a rounded inv_freq or another base
// scores (10^6 and more with 2048 rows).
inline constexpr double frequency_misfit_limit = 100.0;

// How many frequencies measured reliably the rule misses by a squared
// z-score past frequency_misfit_limit (the misfit's own terms).
std::int64_t frequency_outliers(const RotaryDetection& detection, const std::vector<double>& inv_freq);

// The better of the rule's exact and float32 inv_freq.
double rule_misfit(const RotaryDetection& detection, const RotaryConvention& convention);

// The frequencies ggml's rope builds for the convention: pair i's angle is p
// times theta_scale^i, theta_scale = powf(base, -2/d) rounded to float32 and
// multiplied in i times (theta *= theta_scale), times the rule's own ratio to
// the plain ladder (ggml's freq_factors). Each multiplication's rounding
// varies with p and averages out of a slope fitted over many rows; the
// rounded theta_scale does not: pair i's frequency is off by up to i * 2^-24
// relative, which is what a fitted base a few parts per million off shows.
// `neighbour` -1 or 1 takes the float32 below or above the correctly rounded
// theta_scale instead: a libm's powf may be an ULP off.
std::vector<double> accumulated_inv_freqs(const RotaryConvention& convention, int neighbour = 0);

// The smallest misfit of the three accumulated ladders (neighbour -1, 0, 1).
double accumulated_misfit(const RotaryDetection& detection, const RotaryConvention& convention);

// `convention` made to produce a cache of `frequencies` distinct columns in
// `layout`: the cache only shows the rotary width, so the head dimension is
// set to it and the rotary fraction to 1. Empty when the convention cannot
// (longrope factors of another length).
std::optional<RotaryConvention> at_cache_width(RotaryConvention convention, RotaryLayout layout,
                                               std::int64_t frequencies);

// Every preset at the cache's width, then the unscaled rule with the fitted
// base to 1, 2 and 3 significant digits, then dynamic NTK on the unscaled
// presets (rotary_dynamic_ntk.hpp; `rows`: the cache's), then the fitted base unrounded.
std::vector<RotaryConvention> candidate_conventions(const RotaryDetection& detection, std::int64_t rows);

}  // namespace pecheck::validate
