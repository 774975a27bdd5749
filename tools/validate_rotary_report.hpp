// `pecheck validate COS --sin SIN --output-dir DIR`: the rotary validation's
// JSON and text, and the report `pecheck report` writes (HTML, Markdown, JSON,
// JUnit) with the cache as its subject: the comparison and the diagnosis as
// two checks, then the rotary checks (relative-position, pair-norm) on the
// rows the files hold.
#pragma once

#include <filesystem>
#include <string>

#include "pecheck/table.hpp"
#include "pecheck/validate/rotary_validation.hpp"

namespace pecheck::tools {

// `cos` and `sin` hold the values as compared (in result.format);
// `convention` is the one compared against (the detected layout when none
// was given); `reproduce` is the command line that writes the same files.
void write_rotary_report(const std::filesystem::path& directory, const std::string& name, const Table& cos,
                         const Table& sin, const validate::RotaryValidationResult& result,
                         const RotaryConvention& convention, const std::string& reproduce);

}  // namespace pecheck::tools
