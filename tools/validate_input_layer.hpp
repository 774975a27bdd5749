// `pecheck validate OUTPUT.npy --vocabulary VOCAB.npy --ids IDS.npy
// [--positions POS.npy]`: a user's input layer checked from its output (the
// embedding scale, then the positional encoding it added; see
// validate/input_layer.hpp).
#pragma once

#include <optional>
#include <string>

#include <CLI/CLI.hpp>

namespace pecheck::tools {

struct InputLayerOptions {
  std::string vocabulary;
  std::string ids;
  std::string positions;

  bool given() const { return !vocabulary.empty() || !ids.empty() || !positions.empty(); }
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
