// Options shared by several commands, declared once so their help text and
// validation read the same everywhere.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include <CLI/CLI.hpp>

#include "pecheck/convention.hpp"

namespace pecheck::tools {

// --convention NAME, checked against the presets (the message lists them).
CLI::Option* add_convention_option(CLI::App& command, std::string& name);
// --dtype float64|float32|float16|bfloat16 (default float32).
CLI::Option* add_dtype_option(CLI::App& command, std::string& dtype);

// Every number on the command line is read by these, alike: no blanks before,
// inside or after it (" 5" and "5\n" are refused everywhere, naming the flag).
//
// A finite number >= minimum (> minimum when `exclusive`). NaN, infinity and
// anything below are refused with the expectation in words: a NaN budget
// would otherwise compare false against every error and let every table pass.
CLI::Validator finite_number_at_least(double minimum, bool exclusive = false);
// A whole number >= minimum, refused in words (CLI11's own ranges print the
// limits of a double, 300 digits long). Attach it with ->transform(): it
// hands CLI11 the number in canonical decimal, since CLI11's own conversion
// reads a leading 0 as octal.
CLI::Validator whole_number_at_least(long long minimum);
// A seed: a whole number >= 0, decimal or 0x hex. "-1" is refused rather than
// wrapped around to 0xffffffffffffffff. Attach it with ->transform(), as above.
CLI::Validator seed_number();

}  // namespace pecheck::tools
