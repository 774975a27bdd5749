// `pecheck validate --rope PRESET --exec 'COMMAND {rows} {dim} {offset} {dtype} {output}'`:
// a rotary cache producer driven over the same command protocol as --exec on
// additive tables (external_subjects.hpp): pecheck asks it for blocks of rows,
// validates each block as `pecheck validate` validates a cache file (the exact
// encoding, the computation model, the diagnosis), and runs rotary/relative-
// position and rotary/pair-norm on each block's rows.
#pragma once

#include <string>

#include "validate_exec.hpp"
#include "validate_rotary.hpp"

namespace pecheck::tools {

// Exit status 0 when every block conforms and every check held, 1 otherwise,
// 2 when the command fails on its first call; bad input throws (exit 2).
int validate_rotary_exec(const RotaryOptions& rotary, const ExecOptions& exec, bool json);

}  // namespace pecheck::tools
