// `pecheck validate COS --sin SIN [--config config.json | --rope PRESET]`: a
// rotary cache (RoPE) checked against the correctly rounded reference (see
// validate/rotary_validation.hpp). COS alone may hold both tables: an array
// of shape (2, L, d) (cos then sin) or a complex (L, d/2) freqs_cis.
#pragma once

#include <optional>
#include <string>

#include <CLI/CLI.hpp>

#include "pecheck/rotary_convention.hpp"

namespace pecheck::tools {

struct RotaryOptions {
  std::string sin;
  std::string config;
  std::string rope;   // a preset name or "auto"
  std::string model = "hf-float32";
  std::string layout;  // overrides config.json's (which does not say): rotate-half, interleaved, complex
  std::int64_t sequence_length = 0;

  bool given() const { return !sin.empty() || !config.empty() || !rope.empty(); }
};

void add_rotary_options(CLI::App& command, RotaryOptions& options);

// The convention --config or --rope names (--layout applied); nullopt for
// --rope auto or neither. Throws ConventionError for an unknown preset or
// layout and for a config.json no rule can build.
std::optional<RotaryConvention> rotary_convention_of(const RotaryOptions& options);

struct RotaryCheck {
  std::string file;
  std::string offset = "auto";
  std::optional<double> max_ulp;
  bool json = false;
  std::string output_dir;  // also write validation.json, .txt and the report there (atomically)
};

// Exit status 0 conforms, 1 deviates or unknown; bad input throws (exit 2).
int validate_rotary_file(const RotaryOptions& options, const RotaryCheck& check);

}  // namespace pecheck::tools
