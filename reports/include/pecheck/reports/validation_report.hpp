// `pecheck validate ... --output-dir DIR`: the one report adapter for a
// validated subject of any kind. It writes validation.json and
// validation.txt (validate/validation_writers.hpp), and, when the subject
// can serve rows for checks (a settled convention), the report `pecheck
// report` writes (HTML, Markdown, JSON, JUnit) with two results made from the
// validation (the comparison, the diagnosis) followed by the kind's own
// checks run on the rows the files hold.
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "pecheck/reports/report_model.hpp"
#include "pecheck/table.hpp"
#include "pecheck/validate/validation.hpp"

namespace pecheck::reports {

// The values the subject's files hold, as compared (in the compared format):
// the table, or the cos and sin caches, or a rotated output's input and
// output; none for an input layer (its recovered encoding is in its findings).
struct ValidatedValues {
  const Table* table = nullptr;
  const Table* sin = nullptr;
  std::string model;  // rotary: the computation model compared beside the exact encoding
  // rotated: IN and OUT as rows of head_dim, and each row's position from POS
  // (the offset the validation read is added where the checks ask).
  std::optional<TableView> rotated_input;
  std::optional<TableView> rotated_output;
  std::vector<std::int64_t> row_position;
  std::vector<std::vector<std::int64_t>> mrope_position;  // M-RoPE ids that differ (RotatedTokens'), else empty
};

// The computation model the rotary checks hold a validated cache to: the
// model's (by name) when the cache is within budget of it and not of the
// exact encoding; otherwise nullopt, the exact encoding's bounds.
std::optional<ComputationModel> rotary_checks_model(const validate::Validation& validation,
                                                    const std::string& model_name);

// `file` names the subject as the text and JSON do; `reproduce` is the
// command line that writes the same files.
// The results a validated subject gives a report: the comparison and the
// diagnosis made from the validation, then the kind's checks run on its own
// rows (none when it serves no rows), each under `file`. `--kernel --exec
// --output-dir` gathers them call by call.
std::vector<CheckResult> validation_results(const validate::Validation& validation, const std::string& file,
                                            const ValidatedValues& values, const std::string& reproduce);

void write_validation_report(const std::filesystem::path& directory, const validate::Validation& validation,
                             const std::string& file, const ValidatedValues& values, const std::string& reproduce);

}  // namespace pecheck::reports
