#include <optional>
#include <unistd.h>

#include <cstdio>
#include <iostream>
#include <string>
#include <thread>

#include "cli_options.hpp"
#include "commands.hpp"
#include "pecheck/external_subjects.hpp"
#include "pecheck/reference/reference.hpp"
#include "pecheck/reports/report_directory.hpp"
#include "pecheck/table_file.hpp"
#include "pecheck/validate/validation.hpp"
#include "pecheck/validate/validation_report.hpp"
#include "validate_exec.hpp"
#include "validate_input_layer.hpp"
#include "validate_report.hpp"
#include "validate_rotary.hpp"
#include "validate_rotary_exec.hpp"

namespace pecheck::tools {

namespace {

struct ValidateOptions {
  std::string file;
  std::string tensor;
  std::string convention = "auto";
  std::string offset = "auto";
  std::optional<double> max_ulp;
  std::optional<double> max_abs_error;
  std::string dtype;
  std::string output_dir;
  std::int64_t sample = 0;  // 0: every entry
  bool full = false;        // the default since every entry is compared; kept for old scripts
  bool ulp_only = false;
  bool json = false;
  ExecOptions exec;
  InputLayerOptions input_layer;
  RotaryOptions rotary;
};

std::optional<std::int64_t> parse_offset(const std::string& text) {
  if (text == "auto") return std::nullopt;
  // The command line's one number parser: decimal, as --offset of `pecheck table` reads it.
  const std::optional<std::uint64_t> value = parse_decimal(text);
  if (!value) throw ConventionError("--offset '" + text + "': expected 'auto' or a row offset >= 0 in decimal digits");
  return static_cast<std::int64_t>(*value);
}

// A double as text that parses back to the same double.
std::string exact_number(double x) {
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%.17g", x);
  return buffer;
}

// The command line that writes the same report: the file and every option
// that shapes the result, as given (auto stays auto, so detection runs again
// as it did). --json only changes what is printed, not what is written.
std::string reproduce_command(const ValidateOptions& options) {
  std::string command = "pecheck validate " + shell_quote(options.file);
  if (!options.tensor.empty()) command += " --tensor " + shell_quote(options.tensor);
  if (options.convention != "auto") command += " --convention " + shell_quote(options.convention);
  if (options.offset != "auto") command += " --offset " + shell_quote(options.offset);
  if (options.max_ulp) command += " --max-ulp " + exact_number(*options.max_ulp);
  if (options.max_abs_error) command += " --max-abs-error " + exact_number(*options.max_abs_error);
  if (options.ulp_only) command += " --ulp-only";
  if (!options.dtype.empty()) command += " --dtype " + options.dtype;
  if (options.sample > 0) command += " --sample " + std::to_string(options.sample);
  return command + " --output-dir " + shell_quote(options.output_dir);
}

// "\r... n/N rows" on stderr while the reference runs, only on a terminal.
std::function<void(std::int64_t, std::int64_t)> terminal_progress() {
  if (::isatty(STDERR_FILENO) == 0) return {};
  return [](std::int64_t done, std::int64_t total) {
    std::fprintf(stderr, "\rpecheck validate: reference %lld/%lld rows", static_cast<long long>(done),
                 static_cast<long long>(total));
    if (done == total) std::fprintf(stderr, "\r\033[K");
    std::fflush(stderr);
  };
}

int validate_file(const ValidateOptions& options) {
  if (!options.tensor.empty() && table_file_kind(options.file) == TableFileKind::npy) {
    throw ConventionError("validate: --tensor applies only to a .safetensors file; " + options.file +
                          " is .npy (one array)");
  }
  // The oracle's constants are built on a second thread while this one reads
  // the file, a core that would otherwise wait (3 ms of a 100 ms run on a
  // 128 MiB table). A failure there is left for the comparison to meet.
  std::jthread constants([] {
    try {
      reference::prepare_constants();
    } catch (...) {
    }
  });
  const TableFile file =
      read_table_file(options.file, options.tensor.empty() ? std::nullopt : std::optional<std::string>(options.tensor));
  validate::ValidationOptions validation;
  if (options.convention != "auto") validation.convention = convention_by_name(options.convention);
  validation.row_offset = parse_offset(options.offset);
  validation.max_ulp = options.max_ulp;
  validation.max_abs_error = options.max_abs_error;
  validation.ulp_only = options.ulp_only;
  if (!options.dtype.empty()) validation.compare_as = *parse_format(options.dtype);
  validation.sample_rows = options.sample;
  validation.progress = terminal_progress();
  // Locked, cleaned and proven writable before the comparison runs.
  std::optional<reports::ReportDirectory> report_directory;
  if (!options.output_dir.empty()) report_directory.emplace(options.output_dir);
  validate::ValidationResult result;
  try {
    result = validate::validate_table(file.table, validation);
  } catch (const validate::ValidationInputError& e) {
    throw ConventionError(options.file + ": " + e.what());
  }
  // A (N, 1, d), (1, N, d) or (1, 1, N, d) buffer: say what was read.
  if (!file.info.shape_note.empty()) result.detection.notes.insert(result.detection.notes.begin(), file.info.shape_note);
  if (!options.output_dir.empty()) {
    Table compared = file.table;
    compared.format = result.compared_format;  // the values are those of the format compared
    write_validation_report(report_directory->staging(), options.file, compared, result, reproduce_command(options));
    report_directory->commit();
  }
  std::cout << (options.json ? validate::validation_json(result, options.file)
                             : validate::validation_text(result, options.file));
  return result.verdict == validate::ValidationVerdict::conforms ? 0 : 1;
}

// Flags of one mode given in the other are refused, never silently ignored.
void refuse_flags(const CLI::App& command, std::initializer_list<const char*> flags, const std::string& why) {
  for (const char* flag : flags) {
    if (command.count(flag) > 0) throw ConventionError("validate: " + std::string(flag) + " " + why);
  }
}

}  // namespace

Command add_validate_command(CLI::App& app) {
  CLI::App* command = app.add_subcommand(
      "validate",
      "Check a third-party positional-encoding table (.npy or .safetensors) against the correctly rounded\n"
      "reference. The convention, layout, frequency rule and the row that file row 0 holds are detected\n"
      "from the table unless given; every entry (or, with --sample N, N deterministically sampled rows\n"
      "that include the worst ones, and the verdict says so) is compared in the table's format, and known numeric "
      "faults\n"
      "are diagnosed: positions held in bf16/fp16, angles computed in low precision, values outside\n"
      "[-1, 1], NaN or infinity, a table that is not a sinusoidal encoding.\n"
      "An entry passes when it is within the ULP budget, or within the error an ordinary float64\n"
      "computation may have (angle p * w rounded in float64, then sin/cos; the bound is derived in\n"
      "accuracy/include/pecheck/accuracy/angle_allowance.hpp); the output says which criterion\n"
      "decided.\n"
      "With --exec, an external command that writes tables is checked instead (see --exec); --exec-protocol, "
      "--timeout,\n"
      "--exec-dtype, --check, --cases, --seed and --quick apply only to it, the comparison options only\n"
      "to a FILE. A command that fails on its first call exits 2: it is broken, not deviating.\n"
      "With --exec and --rope PRESET or --config, the command writes rotary caches: pecheck asks it for 512 rows from\n"
      "positions 0, 15872 and 2^20 - 512 in each --exec-dtype ({dim} is the rotary width d, {output} gets a (2, rows, "
      "d)\n"
      "array, cos then sin) and validates each block as a cache file, with rotary/relative-position and "
      "rotary/pair-norm.\n"
      "With --vocabulary VOCAB.npy alone (--convention NAME [--scale S], no FILE), a trained embedding\n"
      "table is measured with the report's input-layer statistics (see --scale); nothing is asserted.\n"
      "Exit status: 0 conforms, 1 deviates or unknown, 2 bad input.\n"
      "Example: pecheck validate pe.npy --json");
  auto options = std::make_shared<ValidateOptions>();
  command->add_option("FILE", options->file, "The table: .npy or .safetensors");
  command->add_option("--tensor", options->tensor, "The tensor to read from a .safetensors file with several");
  command->add_option("--convention", options->convention, "A preset name, or auto (detect)")->capture_default_str();
  command->add_option("--offset", options->offset, "File row 0 holds the convention's row K, or auto (detect)")
      ->capture_default_str();
  command->add_option("--max-ulp", options->max_ulp,
                      "Largest ULP error allowed (default: pecheck's third-party budget for the format)")
      ->check(finite_number_at_least(0));
  command->add_option("--max-abs-error", options->max_abs_error,
                      "Largest absolute error allowed; alone it replaces the ULP criterion, with --max-ulp both hold")
      ->check(finite_number_at_least(0));
  command->add_option("--dtype", options->dtype, "Compare as this format (default: the narrowest holding every value)")
      ->check(CLI::IsMember({"float64", "float32", "float16", "bfloat16"}));
  command->add_option("--sample", options->sample,
                      "Compare only N rows with the reference, chosen deterministically (the worst rows the fast\n"
                      "scan finds first); the verdict says it was sampled. Default: every entry")
      ->transform(whole_number_at_least(1));
  command->add_flag("--full", options->full, "Compare every entry (the default; accepted for old scripts)");
  command->add_flag("--ulp-only", options->ulp_only,
                    "Hold every entry to the ULP budget alone: no entry passes by the float64-angle bound (the\n"
                    "error an ordinary float64 computation of the angle p * w can have, near the zeros of sin)");
  command->add_flag("--json", options->json, "Print one JSON object on stdout");
  command->add_option("--output-dir", options->output_dir, "Also write the result to DIR: validation.json and .txt, and the HTML/Markdown/JSON/JUnit report of the checks on the file\n"
                      "(rotary caches: the comparison, the diagnosis and the rotary checks on the rows the files hold)\n"
                      "(with --vocabulary/--ids: input_layer.json and .txt, and validation.json and .txt of the recovered encoding)");
  add_exec_options(*command, options->exec);
  add_input_layer_options(*command, options->input_layer);
  add_rotary_options(*command, options->rotary);

  return {
      command, [command, options] {
        if (options->rotary.given() && !options->exec.command.empty()) {
          // A rotary cache producer over the --exec protocol: the blocks it is asked for are pecheck's choice.
          if (!options->file.empty()) throw ConventionError("validate: give the cache FILE or --exec, not both");
          refuse_flags(
              *command,
              {"--sin", "--offset", "--output-dir", "--max-ulp", "--tensor", "--convention", "--max-abs-error",
               "--dtype", "--sample", "--full", "--ulp-only", "--vocabulary", "--ids", "--positions", "--check",
               "--cases", "--seed", "--quick"},
              "does not apply to a rotary cache producer (--exec with --rope or --config): pecheck asks it for "
              "fixed blocks of rows and holds them to its third-party budgets; --exec-dtype sets the formats");
          return validate_rotary_exec(options->rotary, options->exec, options->json);
        }
        if (options->rotary.given()) {
          if (options->file.empty()) {
            throw ConventionError(
                "validate: the cos cache FILE (or --exec COMMAND) is required with --sin, --config or --rope");
          }
          refuse_flags(*command,
                       {"--exec", "--tensor", "--convention", "--max-abs-error", "--dtype", "--sample", "--full",
                        "--ulp-only", "--vocabulary", "--ids", "--positions", "--timeout", "--exec-protocol",
                        "--exec-dtype", "--check", "--cases", "--seed", "--quick"},
                       "does not apply to rotary caches (--sin, --config, --rope): they are compared entry by entry "
                       "with the exact encoding and the computation model (--model)");
          return validate_rotary_file(
              options->rotary, {options->file, options->offset, options->max_ulp, options->json, options->output_dir});
        }
        for (const char* flag : {"--model", "--layout", "--sequence-length"}) {
          if (command->count(flag) > 0) {
            throw ConventionError("validate: " + std::string(flag) +
                                  " applies only to rotary caches (with --sin, --config or --rope)");
          }
        }
        if (options->input_layer.given()) {
          refuse_flags(
              *command,
              {"--exec", "--tensor", "--offset", "--dtype", "--sample", "--full", "--ulp-only", "--timeout",
               "--exec-protocol", "--exec-dtype", "--check", "--cases", "--seed", "--quick"},
              "does not apply with --vocabulary/--ids (an input layer's output is read from .npy, its positions "
              "are given, and its recovered encoding is compared entry by entry)");
          return validate_input_layer_file(
              options->input_layer, {options->file, options->convention, options->max_ulp, options->max_abs_error,
                                     options->json, options->output_dir});
        }
        if (!options->exec.command.empty()) {
          if (!options->file.empty()) throw ConventionError("validate: give FILE or --exec, not both");
          refuse_flags(*command,
                       {"--tensor", "--offset", "--max-ulp", "--max-abs-error", "--dtype", "--sample", "--full",
                        "--ulp-only", "--output-dir"},
                       "applies only to a FILE, not with --exec (the checks on a command use pecheck's third-party "
                       "budgets; --exec-dtype sets its formats)");
          return validate_exec(options->exec, options->convention, options->json);
        }
        if (options->file.empty())
          throw ConventionError("validate: a FILE (.npy or .safetensors) or --exec COMMAND is required");
        refuse_flags(*command,
                     {"--timeout", "--exec-protocol", "--exec-dtype", "--check", "--cases", "--seed", "--quick"},
                     "applies only with --exec COMMAND, not to a FILE (a file is compared entry by entry, not by "
                     "generated cases)");
        if (options->full && command->count("--sample") > 0) {
          throw ConventionError("validate: --sample and --full exclude each other (--full compares every entry)");
        }
        return validate_file(*options);
      }};
}

}  // namespace pecheck::tools
