// `pecheck validate COS --sin SIN --output-dir DIR`: the rotary validation's
// JSON and text, and the report `pecheck report` writes (HTML, Markdown, JSON,
// JUnit) with the cache as its subject: the comparison and the diagnosis as
// two checks, then the rotary checks (relative-position, pair-norm) on the
// rows the files hold.
#pragma once

#include <filesystem>
#include <optional>
#include <string>

#include "pecheck/table.hpp"
#include "pecheck/validate/rotary_validation.hpp"

namespace pecheck::tools {

// The computation model the rotary checks hold a validated cache to: the
// model's (by name) when the cache is within budget of it and not of the
// exact encoding; otherwise nullopt, the exact encoding's bounds.
std::optional<ComputationModel> rotary_checks_model(const validate::RotaryValidationResult& result,
                                                    const std::string& model_name);

// `cos` and `sin` hold the values as compared (in result.format);
// `convention` is the one compared against (the detected layout when none
// was given); `model_name` the computation model compared beside the exact
// encoding (the rotary checks hold a cache that conforms only to it to its
// bounds); `reproduce` is the command line that writes the same files.
void write_rotary_report(const std::filesystem::path& directory, const std::string& name, const Table& cos,
                         const Table& sin, const validate::RotaryValidationResult& result,
                         const RotaryConvention& convention, const std::string& model_name,
                         const std::string& reproduce);

}  // namespace pecheck::tools
