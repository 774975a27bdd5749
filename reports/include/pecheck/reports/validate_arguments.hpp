// `pecheck validate`'s arguments, as given, for every kind of subject, and
// the one entry point that picks the kind from them, refuses the arguments
// that do not apply to it (a table of which flag applies to which kind,
// validate_arguments.cpp) and calls the kind's library entry point
// (file_validation.hpp, exec_validation.hpp, rotary_exec_validation.hpp,
// rotated_exec_validation.hpp). The command line only fills this in.
#pragma once

#include <cstdint>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "pecheck/reports/exec_validation.hpp"
#include "pecheck/reports/file_validation.hpp"

namespace pecheck::reports {

struct ValidateArguments {
  // A table, or the cos cache, or an input layer's output, or a rotated output.
  std::string file;
  std::string tensor;
  std::string convention = "auto";
  std::string offset = "auto";
  std::optional<double> max_ulp;
  std::optional<double> max_abs_error;
  std::optional<double> atol;  // assert_close's criterion: |a - e| <= atol + rtol |e|
  std::optional<double> rtol;
  std::string dtype;
  std::int64_t sample = 0;  // 0: every entry
  bool full = false;        // the default since every entry is compared; kept for old scripts
  bool ulp_only = false;
  bool json = false;       // print one JSON document instead of the text
  std::string output_dir;  // also write the result and its report there
  ExecOptions exec;
  // Rotary caches.
  std::string sin;
  std::string config;
  std::string rope;  // a preset name or "auto"
  std::string model = "hf-float32";
  std::string layout;  // overrides config.json's (which does not say): rotate-half, interleaved, complex
  std::int64_t sequence_length = 0;
  std::string layer_type;  // --config's layer type (empty: every one the config has)
  // Rotated outputs (FILE is the kernel's output; --positions gives POS).
  std::string input;
  std::string qkv_format;
  bool kernel = false;  // --exec runs a RoPE kernel (IN, POS in; OUT out)
  // Input layers, and a vocabulary alone.
  std::string vocabulary;
  std::string ids;
  std::string positions;
  std::optional<double> scale;
  std::optional<std::int64_t> context;

  // The flags given, by name ("--sin"; "FILE" for the positional): those
  // that do not apply to the kind chosen are refused, never ignored.
  std::vector<std::string> given;
};

// The kinds of subject `pecheck validate` takes, chosen from the arguments.
enum class ValidateKind { table_file, table_exec, rotary_file, rotary_exec, rotated_file, kernel, input_layer, vocabulary };
ValidateKind validate_kind_of(const ValidateArguments& arguments);

// Throws ConventionError naming the first flag given that does not apply
// to the kind the arguments choose, with why; std::logic_error for a flag
// the applicability table does not know (every flag must be in it).
void refuse_inapplicable_flags(const ValidateArguments& arguments);

// The exit status: 0 conforms, 1 deviates or unknown; bad input throws
// ConventionError with one line naming the file or flag (exit 2).
// `reproduce` is the command line that writes the same report (the
// report directory names it).
int run_validate(const ValidateArguments& arguments, const std::string& reproduce, std::ostream& out);

}  // namespace pecheck::reports
