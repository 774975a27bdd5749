// `pecheck validate OUTPUT.npy --vocabulary VOCAB.npy --ids IDS.npy
// [--positions POS.npy]`: a user's input layer checked from its output (the
// embedding scale, then the positional encoding it added; see
// validate/input_layer.hpp). `pecheck validate --vocabulary VOCAB.npy
// --convention NAME [--scale S]`: the table alone, measured with the report's
// input-layer statistics (validate/vocabulary.hpp).
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include <CLI/CLI.hpp>

namespace pecheck::tools {

struct InputLayerOptions {
  std::string vocabulary;
  std::string ids;
  std::string positions;
  std::optional<double> scale;  // the vocabulary alone: the embedding scale s (default sqrt(d))
  // The vocabulary alone: the encoding's rows 0..context-1 the statistics are
  // measured against (default: the paper's base model's 512).
  std::optional<std::int64_t> context;

  bool given() const {
    return !vocabulary.empty() || !ids.empty() || !positions.empty() || scale.has_value() || context.has_value();
  }
  // --vocabulary without --ids (and, in validate_input_layer_file, without FILE): the table alone.
  bool vocabulary_alone() const { return !vocabulary.empty() && ids.empty() && positions.empty(); }
};

void add_input_layer_options(CLI::App& command, InputLayerOptions& options);

// The flags of `validate` that apply to the recovered encoding.
struct InputLayerCheck {
  std::string output;
  std::string convention = "auto";
  std::optional<double> max_ulp;
  std::optional<double> max_abs_error;
  bool json = false;
  std::string output_dir;  // also write the recovered encoding's validation report there
};

// Exit status 0 conforms, 1 deviates or unknown; bad input throws (exit 2).
int validate_input_layer_file(const InputLayerOptions& options, const InputLayerCheck& check);

}  // namespace pecheck::tools
