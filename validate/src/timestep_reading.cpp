#include "timestep_reading.hpp"

#include <string_view>

#include "pecheck/number_text.hpp"
#include "preset_match.hpp"

namespace pecheck::validate {

std::optional<TimestepEmbedding> timestep_reading(const Convention& found, std::int64_t dim) {
  if (found.layout == Layout::interleaved) return std::nullopt;
  if (const std::optional<TimestepEmbedding> fields = timestep_fields(found)) return fields;
  const std::int64_t n = dim / 2;
  if (n < 2 || frequency_count(found, dim) != n) return std::nullopt;
  // w_i = multiplier exp(-(k_i/m) ln(num/den)) / divisor with k_i = c i for
  // every rule: the slope of frequency 1 gives n - shift = m / k_1.
  const FrequencyTerm first = frequency_term(found, dim, 1);
  if (first.k < 1 || first.m % first.k != 0 || first.log_denominator != 1.0 || first.divisor != 1.0) {
    return std::nullopt;
  }
  TimestepEmbedding fields;
  fields.flip_sin_to_cos = found.layout == Layout::cos_sin_halves;
  fields.downscale_freq_shift = n - first.m / first.k;
  fields.scale = first.multiplier;
  fields.max_period = first.log_numerator;
  if (fields.downscale_freq_shift < 0 || !(fields.max_period > 1.0)) return std::nullopt;
  // The reading stands only when it gives every frequency of the table.
  Convention reading = timestep_convention("reading", fields);
  if (dim < reading.min_dim || !same_frequencies(reading, found, dim)) return std::nullopt;
  return fields;
}

std::string timestep_field_words(const char* field, const TimestepEmbedding& fields) {
  const std::string_view name = field;
  if (name == "flip_sin_to_cos") return std::string("flip_sin_to_cos ") + (fields.flip_sin_to_cos ? "true" : "false");
  if (name == "downscale_freq_shift") return "downscale_freq_shift " + std::to_string(fields.downscale_freq_shift);
  if (name == "scale") return "scale " + significant(fields.scale, 6);
  return "max_period " + significant(fields.max_period, 6);
}

}  // namespace pecheck::validate
