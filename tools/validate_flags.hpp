// The flags of `pecheck validate`, registered into the library's one
// argument record (reports/validate_arguments.hpp), which picks the kind of
// subject and refuses the flags that do not apply to it.
#pragma once

#include <CLI/CLI.hpp>

#include "pecheck/reports/validate_arguments.hpp"

namespace pecheck::tools {

void add_validate_flags(CLI::App& command, reports::ValidateArguments& flags);

}  // namespace pecheck::tools
