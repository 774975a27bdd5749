// Options shared by several commands, declared once so their help text and
// validation read the same everywhere.
#pragma once

#include <string>

#include <CLI/CLI.hpp>

#include "pecheck/convention.hpp"

namespace pecheck::tools {

// --convention NAME, checked against the presets (the message lists them).
CLI::Option* add_convention_option(CLI::App& command, std::string& name);
// --dtype float64|float32|float16|bfloat16 (default float32).
CLI::Option* add_dtype_option(CLI::App& command, std::string& dtype);

// The preset named, or ConventionError listing the valid names.
Convention convention_by_name(const std::string& name);

}  // namespace pecheck::tools
