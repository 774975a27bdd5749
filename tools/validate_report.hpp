// `pecheck validate FILE --output-dir DIR`: the validation's JSON object and
// text, and, when the reports part is built, the report `pecheck report`
// writes (HTML, Markdown, JSON, JUnit) with the file as its subject.
#pragma once

#include <string>

#include "pecheck/table.hpp"
#include "pecheck/validate/validation.hpp"

namespace pecheck::tools {

// `table` holds the values as compared (in result.compared_format);
// `reproduce` is the command line that writes the same report.
void write_validation_report(const std::string& directory, const std::string& file, const Table& table,
                             const validate::ValidationResult& result, const std::string& reproduce);

}  // namespace pecheck::tools
