// A detected additive convention read back as diffusers' timestep-embedding
// arguments, so a table checked against a timestep convention is told apart
// from it in the fields get_timestep_embedding takes (flip_sin_to_cos,
// downscale_freq_shift, scale, max_period) rather than as another preset.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "pecheck/convention.hpp"

namespace pecheck::validate {

// The arguments whose table is `found`'s at width d, when there are some: a
// halves layout, one frequency per pair, and frequencies that are a
// timestep rule's with a whole downscale_freq_shift (the paper rule with
// base B at even d is shift 0 with max_period B; a timescale rule from 1 to
// M is shift 1 with max_period M). nullopt otherwise.
std::optional<TimestepEmbedding> timestep_reading(const Convention& found, std::int64_t dim);

// "flip_sin_to_cos true", "downscale_freq_shift 1", ...: one field in words.
std::string timestep_field_words(const char* field, const TimestepEmbedding& fields);

}  // namespace pecheck::validate
