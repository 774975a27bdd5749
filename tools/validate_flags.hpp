// The flags of `pecheck validate`, as given, for every kind of subject: the
// command picks the kind from which are present (command_validate.cpp) and
// hands the library one request.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include <CLI/CLI.hpp>

#include "pecheck/reports/exec_validation.hpp"

namespace pecheck::tools {

struct ValidateFlags {
  // A table, or the cos cache, or an input layer's output.
  std::string file;
  std::string tensor;
  std::string convention = "auto";
  std::string offset = "auto";
  std::optional<double> max_ulp;
  std::optional<double> max_abs_error;
  std::optional<double> atol;  // assert_close's criterion: |a - e| <= atol + rtol |e|
  std::optional<double> rtol;
  std::string dtype;
  std::string output_dir;
  std::int64_t sample = 0;  // 0: every entry
  bool full = false;        // the default since every entry is compared; kept for old scripts
  bool ulp_only = false;
  bool json = false;
  reports::ExecOptions exec;
  // Rotary caches.
  std::string sin;
  std::string config;
  std::string rope;  // a preset name or "auto"
  std::string model = "hf-float32";
  std::string layout;  // overrides config.json's (which does not say): rotate-half, interleaved, complex
  std::int64_t sequence_length = 0;
  std::optional<double> softmax_scale;  // --softmax-scale: the engine's attention scale, held to the config's
  std::string layer_type;  // --config's layer type (empty: every one the config has)
  // Rotated outputs (FILE is the kernel's output; --positions gives POS).
  std::string input;
  std::string qkv_format;
  bool kernel = false;                      // --exec runs a RoPE kernel (IN, POS in; OUT out)
  // Input layers, and a vocabulary alone.
  std::string vocabulary;
  std::string ids;
  std::string positions;
  std::optional<double> scale;
  std::optional<std::int64_t> context;

  bool rotated() const { return !input.empty() || !qkv_format.empty() || kernel; }
  bool rotary() const { return !sin.empty() || !config.empty() || !rope.empty(); }
  bool input_layer() const {
    return !vocabulary.empty() || !ids.empty() || !positions.empty() || scale.has_value() || context.has_value();
  }
};

void add_validate_flags(CLI::App& command, ValidateFlags& flags);

}  // namespace pecheck::tools
