// `pecheck validate --rope PRESET --exec 'COMMAND {rows} {dim} {offset} {dtype} {output}'`:
// a rotary cache producer driven over the same command protocol as --exec on
// additive tables (external_subjects.hpp): pecheck asks it for blocks of rows,
// validates each block as `pecheck validate` validates a cache file (the exact
// encoding, the computation model, the diagnosis), and runs rotary/relative-
// position and rotary/pair-norm on each block's rows.
#pragma once

#include <string>

#include <optional>

#include "pecheck/reports/exec_validation.hpp"
#include "pecheck/rotary_convention.hpp"

namespace pecheck::reports {

// Exit status 0 when every block conforms and every check held, 1 otherwise,
// 2 when the command fails on its first call; bad input throws (exit 2).
// `convention`: the one --rope or --config names (nullopt is refused: the
// command's convention cannot be detected from blocks it is asked for);
// `model`: the computation model compared beside the exact encoding.
int validate_rotary_exec(const std::optional<RotaryConvention>& convention, const std::string& model,
                         const ExecOptions& exec, bool json);

}  // namespace pecheck::reports
