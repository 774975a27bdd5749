// The least-squares estimate of the embedding scale from tokens that share a
// position (see input_layer.hpp for why it does not depend on PE).
#pragma once

#include <cstdint>
#include <vector>

#include "pecheck/format.hpp"
#include "pecheck/table.hpp"
#include "pecheck/validate/input_layer.hpp"

namespace pecheck::validate {

// One token of the input: its id, its position and its output row.
struct InputTokens {
  TableView vocabulary;                  // (V, d), in its own format
  std::vector<std::int64_t> ids;         // N
  std::vector<std::int64_t> positions;   // N
  TableView output;                      // (N, d), in its own format
  FormatId activation_format = FormatId::float32;
  // A single sequence leaves s and PE confounded; with the convention known,
  // its encoding (rows from position known_first, in the activation format)
  // stands for PE and every token is used alone.
  const Table* known_encoding = nullptr;
  std::int64_t known_first = 0;
};

// The unit in the last place of v in `format` (v's binade, floored at the
// subnormal spacing).
double ulp_in(double v, const Format& format);

// The value a layer with these activations multiplies by for candidate c:
// below float64, c held in float32 (PyTorch's opmath for float32, float16 and
// bfloat16 tensors), so sqrt(d) and its float32 rounding are one hypothesis.
double held_scale(double value, FormatId activations);

// Throws ValidationInputError when no position holds two tokens with
// different embeddings (the scale is then not identifiable) and no known
// encoding is given.
ScaleEstimate estimate_scale(const InputTokens& tokens);

}  // namespace pecheck::validate
