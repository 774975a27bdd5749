// `pecheck validate FILE --output-dir DIR`: the validation's JSON object and
// text, and, when the reports part is built, the report `pecheck report`
// writes (HTML, Markdown, JSON, JUnit) with the file as its subject.
#pragma once

#include <filesystem>
#include <string>

#include "pecheck/table.hpp"
#include "pecheck/validate/input_layer.hpp"
#include "pecheck/validate/validation.hpp"

namespace pecheck::tools {

// `table` holds the values as compared (in result.compared_format);
// `reproduce` is the command line that writes the same report. Without
// `check_report`, only validation.json and .txt are written.
void write_validation_report(const std::filesystem::path& directory, const std::string& file, const Table& table,
                             const validate::ValidationResult& result, const std::string& reproduce,
                             bool check_report = true);

// `validate OUTPUT --vocabulary V --ids I --output-dir DIR`: the input
// layer's result (input_layer.json and .txt) and the recovered encoding's
// validation.json and .txt. No check report: its property checks hold the
// table to pecheck's third-party ULP budgets, which an estimate bounded only
// in absolute error cannot meet (a correct bfloat16 layer failed 5 of 14).
void write_input_layer_report(const std::filesystem::path& directory, const std::string& file,
                              const validate::InputLayerResult& result);

}  // namespace pecheck::tools
