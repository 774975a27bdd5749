#include "validate_report.hpp"

#include <filesystem>
#include <span>

#include "pecheck/convention.hpp"
#include "pecheck/table_file.hpp"
#include "pecheck/validate/validation_report.hpp"

#if __has_include("pecheck/reports/report_run.hpp")
#include "pecheck/external_subjects.hpp"
#include "pecheck/reports/report_files.hpp"
#include "pecheck/reports/report_run.hpp"
#define PECHECK_VALIDATE_WITH_REPORTS 1
#endif

namespace pecheck::tools {

namespace {

std::span<const std::byte> bytes_of(const std::string& text) {
  return {reinterpret_cast<const std::byte*>(text.data()), text.size()};
}

#ifdef PECHECK_VALIDATE_WITH_REPORTS
// The encoding-bounds and conformance checks on the rows the file holds,
// against the third-party budgets, rendered like `pecheck report`.
void write_check_report(const std::filesystem::path& directory, const std::string& file, const Table& table,
                        const validate::ValidationResult& result, const std::string& reproduce) {
  const Convention& convention = *result.detection.convention;
  const std::unique_ptr<Subject> subject =
      make_table_file_subject(file, table, convention, result.detection.row_offset);
  std::vector<const properties::Check*> checks;
  for (const properties::Check* check : reports::registered_checks()) {
    if (check->family == properties::Family::encoding_bounds || check->family == properties::Family::conformance) {
      checks.push_back(check);
    }
  }
  reports::ReportSettings settings;
  settings.mode = reports::RunMode::quick;
  settings.command = "pecheck validate";
  settings.reproduce = reproduce;
  settings.figures = false;  // the figures sweep pecheck's own implementation, not a file
  std::vector<reports::CheckResult> outcomes = reports::run_checks(*subject, checks, reports::run_config(settings));
  // A failed property replays on the file, not on `pecheck check`'s built-in
  // subjects: the same command with RapidCheck's reproduce string.
  for (reports::CheckResult& check : outcomes) {
    if (!check.outcome.reproduce.empty()) {
      check.outcome.reproduce_command = "RC_PARAMS=\"" + check.outcome.reproduce + "\" " + reproduce;
    }
  }
  const reports::Report report = reports::build_report(*subject, std::move(outcomes), settings);
  reports::write_report_files(report, directory);
}
#endif

}  // namespace

void write_validation_report(const std::filesystem::path& dir, const std::string& file, const Table& table,
                             const validate::ValidationResult& result, const std::string& reproduce,
                             bool check_report) {
  write_file_atomically(dir / "validation.json", bytes_of(validate::validation_json(result, file)));
  write_file_atomically(dir / "validation.txt", bytes_of(validate::validation_text(result, file)));
#ifdef PECHECK_VALIDATE_WITH_REPORTS
  // Only a settled convention names the rows the checks may ask the file for.
  if (check_report && result.detection.convention && result.compared) {
    write_check_report(dir, file, table, result, reproduce);
  }
#else
  (void)table;
  (void)reproduce;
  (void)check_report;
#endif
}

void write_input_layer_report(const std::filesystem::path& dir, const std::string& file,
                              const validate::InputLayerResult& result) {
  write_validation_report(dir, file + " (recovered encoding)", result.recovered, result.encoding, "", false);
  write_file_atomically(dir / "input_layer.json", bytes_of(validate::input_layer_json(result, file)));
  write_file_atomically(dir / "input_layer.txt", bytes_of(validate::input_layer_text(result, file)));
}

}  // namespace pecheck::tools
