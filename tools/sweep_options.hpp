// Validators for the flags of `pecheck sweep`, which parse with the sweep
// library's own parsers so that the flag and the library agree on the syntax.
#pragma once

#include <CLI/CLI.hpp>

namespace pecheck::tools {

// --shard K/N, --positions FIRST:LAST, --dim D|FIRST:LAST[:STEP].
CLI::Validator shard_text_validator();
CLI::Validator positions_text_validator();
CLI::Validator widths_text_validator();

}  // namespace pecheck::tools
