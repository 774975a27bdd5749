// `pecheck validate cos.npy --sin sin.npy`: a third-party rotary cache (RoPE)
// against the correctly rounded reference of the convention it holds (given by
// a config.json or a preset, or detected from the cache), with the faults of
// CONVENTIONS.md ("Rotary encodings (RoPE)") diagnosed from the cache itself.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "pecheck/format.hpp"
#include "pecheck/rotary_convention.hpp"
#include "pecheck/table.hpp"
#include "pecheck/validate/rotary_read_pass.hpp"
#include "pecheck/validate/validation.hpp"

namespace pecheck::validate {

struct RotaryValidationOptions {
  std::optional<RotaryConvention> convention;  // --config or --rope: skips detection of the convention
  std::optional<std::int64_t> first_position;  // --offset: skips detection of the row offset
  std::optional<double> max_ulp;               // default: the third-party budget of the format
  std::string model = "hf-float32";            // the computation model compared beside the exact encoding
  int threads = 0;
  // The rules of a config with several layer types (read_rotary_config_layers):
  // without `convention`, the cache is validated against each and the one it
  // follows is reported; with it (--layer-type), a cache that deviates is
  // checked against the others, and one that follows another is named so.
  std::vector<RotaryConvention> layer_types;
  // --softmax-scale: the attention softmax scale the engine uses, held to the
  // one the convention derives (rotary_softmax_scale.hpp); the derived scale
  // is printed whenever it is not head_dim^-1/2.
  std::optional<double> softmax_scale;
  // Whether the comparisons count their histograms of ulps (the report's
  // figures; Validation.write_report in Python). `pecheck validate` without
  // --output-dir prints none and leaves them out: on the bench's 65536 x 128
  // float32 cache the rows' passes and bookkeeping fell from 22.7% to 14.9%
  // of the command's samples (perf, 15 runs each, native build).
  bool histograms = true;
};

// Throws ValidationInputError for tables that cannot be a cache (shapes that
// differ, no rows, a width no layout has), and ConventionError for a
// convention the cache contradicts in shape. `read_pass`: the pass over the
// values made as cos and sin were read (rotary_read_pass.hpp), or null.
Validation validate_rotary_cache(const Table& cos, const Table& sin, const RotaryValidationOptions& options = {},
                                 RotaryReadPass* read_pass = nullptr);

// `value_format`: the format the values carry (a float32 file of bfloat16
// values: bfloat16), for every tolerance.
RotaryDetection detect_rotary(const Table& cos, const Table& sin, FormatId value_format,
                              const std::optional<RotaryConvention>& given, std::optional<std::int64_t> first_position);

}  // namespace pecheck::validate
