// A correctly shaped sinusoid times a constant: NeMo's FixedPositionalEncoding
// with xscale (the encoding times sqrt(d_model)), sockeye's scale-down of the
// positions (times d^-0.5), x-transformers' ScaledSinusoidalEmbedding (times a
// learned scale that starts at d^-0.5). Its pairs give sin^2 + cos^2 = s^2,
// not 1, so detection calls it no encoding; divided by s it is one. Saying so,
// with s and whether it is a known constant, sends the engineer to the scale
// instead of to a broken checkpoint.
#pragma once

#include <optional>
#include <string>

#include "pecheck/table.hpp"
#include "pecheck/validate/detection.hpp"
#include "pecheck/validate/validation.hpp"

namespace pecheck::validate {

struct ScaledEncoding {
  Hazard hazard;       // scaled: the convention, the offset, the constant and its name if known
  std::string reason;  // one line for the verdict
  double scale = 0.0;  // fitted by least squares against the encoding
};

// Empty when the table divided by its RMS scale does not pair, or is not
// within bfloat16's rounding of a sinusoidal encoding times the fitted scale.
std::optional<ScaledEncoding> scaled_encoding(const Table& table, const DetectionOptions& options);

}  // namespace pecheck::validate
