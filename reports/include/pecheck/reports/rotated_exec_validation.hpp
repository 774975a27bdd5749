// `pecheck validate --kernel --rope PRESET --exec 'COMMAND {input} {positions} {output} {dtype}'`:
// a RoPE kernel as a command (rotated_command.hpp). pecheck writes the
// queries IN and the positions POS, the command writes the rotated OUT, and
// each call is validated as `pecheck validate OUT --input IN --positions POS`
// validates files: over the dtypes asked for, blocks of positions from 0 up
// to the largest the model allows, in the shapes kernels take.
#pragma once

#include <cstdint>
#include <optional>

#include "pecheck/reports/exec_validation.hpp"
#include "pecheck/reports/file_validation.hpp"
#include "pecheck/rotary_convention.hpp"

namespace pecheck::reports {

struct RotatedExecRequest {
  ExecOptions exec;                            // command, protocol, timeout, dtypes, --max-position
  std::optional<RotaryConvention> convention;  // --rope or --config: required
  // Positions asked for lie in [0, exec.max_position); default: the config's
  // max_position_embeddings times its scaling factor. Never more.
  std::optional<double> max_ulp;
};

// The last position a request may ask for, plus one: the one given, or the
// convention's max_position times its scaling factor. Throws ConventionError
// when neither is known or it lies outside [1, 2^24].
std::int64_t rotated_exec_max_position(const RotatedExecRequest& request);

// Exit status 0 when every call's output conforms, 1 otherwise, 2 when the
// command fails on its first call; bad input throws (exit 2). Progress on
// stderr, one line per call. With output.output_dir, also validation.json
// and .txt (what --json and the text print) and the report: each call's
// comparison, diagnosis and checks on rotated outputs, in call order.
int validate_rotated_exec(const RotatedExecRequest& request, const ValidationOutput& output);

}  // namespace pecheck::reports
