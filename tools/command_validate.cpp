// `pecheck validate`: which kind of subject the flags name, the flags that
// do not apply to it refused, and one library call (reports/file_validation.hpp,
// exec_validation.hpp, rotary_exec_validation.hpp).
#include <iostream>
#include <memory>
#include <optional>
#include <string>

#include "cli_options.hpp"
#include "commands.hpp"
#include "pecheck/external_subjects.hpp"
#include "pecheck/reports/file_validation.hpp"
#include "pecheck/reports/rotary_exec_validation.hpp"
#include "pecheck/reports/rotated_exec_validation.hpp"
#include "pecheck/rotary_config.hpp"
#include "validate_flags.hpp"

namespace pecheck::tools {

namespace {

// "auto", or a row offset (a first position for a rotary cache) in decimal.
std::optional<std::int64_t> parse_offset(const std::string& text, const char* what) {
  if (text == "auto") return std::nullopt;
  const std::optional<std::uint64_t> value = parse_decimal(text);
  if (!value) throw ConventionError("--offset '" + text + "': expected 'auto' or " + what + " >= 0 in decimal digits");
  return static_cast<std::int64_t>(*value);
}

std::optional<RotaryConvention> rotary_convention_of(const ValidateFlags& flags) {
  return named_rotary_convention(flags.config, flags.rope, flags.layout, flags.sequence_length, flags.layer_type);
}

std::optional<Convention> additive_convention_of(const ValidateFlags& flags) {
  if (same_name(flags.convention, "auto")) return std::nullopt;
  return convention_by_name(flags.convention);
}

// The command line that writes the same report: every option given, as
// given (auto stays auto, so detection runs again as it did); --json only
// changes what is printed, not what is written.
std::string reproduce_command(const CLI::App& command, const std::string& output_dir) {
  std::string line = "pecheck validate";
  for (const CLI::Option* option : command.get_options()) {
    const std::string name = option->get_name();
    if (option->count() == 0 || name == "--json" || name == "--output-dir" || name == "--help") continue;
    if (option->get_expected_min() == 0) {
      line += " " + name;
      continue;
    }
    for (const std::string& value : option->results()) {
      line += (option->nonpositional() ? " " + name + " " : std::string(" ")) + shell_quote(value);
    }
  }
  return line + " --output-dir " + shell_quote(output_dir);
}

// Flags of one mode given in the other are refused, never silently ignored.
void refuse_flags(const CLI::App& command, std::initializer_list<const char*> flags, const std::string& why) {
  for (const char* flag : flags) {
    if (command.count(flag) > 0) throw ConventionError("validate: " + std::string(flag) + " " + why);
  }
}

int validate_rotary(const CLI::App& command, const ValidateFlags& flags, const reports::ValidationOutput& output) {
  if (!flags.exec.command.empty()) {
    // A rotary cache producer over the --exec protocol: the blocks it is asked for are pecheck's choice.
    if (!flags.file.empty()) throw ConventionError("validate: give the cache FILE or --exec, not both");
    refuse_flags(command,
                 {"--sin", "--offset", "--output-dir", "--max-ulp", "--tensor", "--convention", "--max-abs-error",
                  "--dtype", "--sample", "--full", "--ulp-only", "--vocabulary", "--ids", "--positions", "--check",
                  "--cases", "--seed", "--quick", "--atol", "--rtol", "--softmax-scale"},
                 "does not apply to a rotary cache producer (--exec with --rope or --config): pecheck asks it for "
                 "fixed blocks of rows and holds them to its third-party budgets; --exec-dtype sets the formats");
    return reports::validate_rotary_exec(rotary_convention_of(flags), flags.model, flags.exec, flags.json);
  }
  if (flags.file.empty()) {
    throw ConventionError("validate: the cos cache FILE (or --exec COMMAND) is required with --sin, --config or --rope");
  }
  refuse_flags(command,
               {"--exec", "--tensor", "--convention", "--max-abs-error", "--dtype", "--sample", "--full",
                "--ulp-only", "--vocabulary", "--ids", "--positions", "--timeout", "--exec-protocol", "--exec-dtype",
                "--check", "--cases", "--seed", "--quick", "--max-position", "--dim", "--memory-limit", "--atol",
                "--rtol"},
               "does not apply to rotary caches (--sin, --config, --rope): they are compared entry by entry "
               "with the exact encoding and the computation model (--model)");
  reports::RotaryFileRequest request{flags.file, flags.sin, {}};
  request.options.convention = rotary_convention_of(flags);
  if (!flags.config.empty()) {
    // A config with several layer types: without --layer-type every rule is
    // tried and the one the cache follows said; with it, that one is checked
    // and a cache following another is named so.
    RotaryConfigOptions read;
    read.sequence_length = flags.sequence_length;
    if (!flags.layout.empty()) read.layout = *parse_rotary_layout(flags.layout);
    request.options.layer_types = read_rotary_config_layers(flags.config, read);
    if (flags.layer_type.empty() && request.options.layer_types.size() > 1) request.options.convention.reset();
  } else if (!flags.layer_type.empty()) {
    throw ConventionError("validate: --layer-type applies with --config (a config.json's layer types)");
  }
  request.options.first_position = parse_offset(flags.offset, "a position");
  request.options.max_ulp = flags.max_ulp;
  request.options.model = flags.model;
  request.options.softmax_scale = flags.softmax_scale;
  return reports::validate_rotary_files(request, output, std::cout);
}

int validate_rotated(const CLI::App& command, const ValidateFlags& flags, const reports::ValidationOutput& output) {
  if (flags.kernel) {
    if (flags.exec.command.empty()) throw ConventionError("validate: --kernel needs --exec COMMAND (the kernel)");
    refuse_flags(command,
                 {"--input", "--positions", "--qkv-format", "--output-dir", "--sin", "--tensor", "--convention",
                  "--offset", "--max-abs-error", "--dtype", "--sample", "--full", "--ulp-only", "--vocabulary",
                  "--ids", "--sequence-length", "--check", "--cases", "--seed", "--quick", "--softmax-scale"},
                 "does not apply to a kernel (--kernel --exec): pecheck writes its inputs and positions, and "
                 "validates each output as a rotated output file");
    if (!flags.file.empty()) throw ConventionError("validate: give the output FILE or --kernel --exec, not both");
    reports::RotatedExecRequest request{flags.exec, rotary_convention_of(flags), flags.max_ulp};
    return reports::validate_rotated_exec(request, flags.json);
  }
  refuse_flags(command,
               {"--exec", "--sin", "--tensor", "--convention", "--offset", "--max-abs-error", "--dtype", "--sample",
                "--full", "--ulp-only", "--vocabulary", "--ids", "--sequence-length", "--atol", "--rtol",
                "--max-position", "--dim", "--memory-limit", "--softmax-scale"},
               "does not apply to rotated outputs (--input): every entry is compared with the exact rotation of "
               "the input at the positions given, and with the computation models");
  if (flags.file.empty() || flags.input.empty() || flags.positions.empty()) {
    throw ConventionError("validate: a rotated output needs FILE (the output), --input IN.npy and --positions POS.npy");
  }
  reports::RotatedFileRequest request{flags.file, flags.input, flags.positions, {}};
  request.options.convention = rotary_convention_of(flags);
  if (!flags.layout.empty()) request.options.layout = parse_rotary_layout(flags.layout);
  if (!flags.qkv_format.empty()) request.options.qkv_format = validate::parse_qkv_format(flags.qkv_format);
  request.options.max_ulp = flags.max_ulp;
  return reports::validate_rotated_files(request, output, std::cout);
}

int validate_input_layer(const CLI::App& command, const ValidateFlags& flags, const reports::ValidationOutput& output) {
  refuse_flags(command,
               {"--exec", "--tensor", "--offset", "--dtype", "--sample", "--full", "--ulp-only", "--timeout",
                "--exec-protocol", "--exec-dtype", "--check", "--cases", "--seed", "--quick", "--max-position",
                "--dim", "--memory-limit", "--atol", "--rtol"},
               "does not apply with --vocabulary/--ids (an input layer's output is read from .npy, its positions "
               "are given, and its recovered encoding is compared entry by entry)");
  if (!flags.vocabulary.empty() && flags.ids.empty() && flags.positions.empty() && flags.file.empty()) {
    if (same_name(flags.convention, "auto")) {
      throw ConventionError(
          "validate: --vocabulary alone needs --convention NAME (the encoding its statistics are measured against)");
    }
    if (flags.max_ulp || flags.max_abs_error || !flags.output_dir.empty()) {
      throw ConventionError(
          "validate: --max-ulp, --max-abs-error and --output-dir do not apply to --vocabulary alone (nothing is "
          "compared: its statistics are printed)");
    }
    // The encoding's rows over the paper's base model's context unless given; the statistics say which.
    return reports::measure_vocabulary_file(
        {flags.vocabulary, convention_by_name(flags.convention), flags.scale, flags.context.value_or(512)}, flags.json,
        std::cout);
  }
  if (flags.scale) throw ConventionError("validate: --scale applies only to --vocabulary alone (without --ids)");
  if (flags.context) throw ConventionError("validate: --context applies only to --vocabulary alone (without --ids)");
  if (flags.vocabulary.empty() || flags.ids.empty()) {
    throw ConventionError("validate: --vocabulary and --ids go together (and --positions needs both)");
  }
  if (flags.file.empty()) throw ConventionError("validate: --vocabulary needs FILE, the input layer's output (.npy)");
  reports::InputLayerRequest request{flags.file, flags.vocabulary, flags.ids, flags.positions, {}};
  request.options.convention = additive_convention_of(flags);
  request.options.max_ulp = flags.max_ulp;
  request.options.max_abs_error = flags.max_abs_error;
  return reports::validate_input_layer_files(request, output, std::cout);
}

int validate_table(const CLI::App& command, const ValidateFlags& flags, const reports::ValidationOutput& output) {
  if (!flags.exec.command.empty()) {
    if (!flags.file.empty()) throw ConventionError("validate: give FILE or --exec, not both");
    refuse_flags(command,
                 {"--tensor", "--offset", "--max-ulp", "--max-abs-error", "--dtype", "--sample", "--full",
                  "--ulp-only", "--output-dir", "--atol", "--rtol"},
                 "applies only to a FILE, not with --exec (the checks on a command use pecheck's third-party "
                 "budgets; --exec-dtype sets its formats)");
    return reports::validate_exec(flags.exec, additive_convention_of(flags), flags.json);
  }
  if (flags.file.empty()) throw ConventionError("validate: a FILE (.npy or .safetensors) or --exec COMMAND is required");
  refuse_flags(command,
               {"--timeout", "--exec-protocol", "--exec-dtype", "--check", "--cases", "--seed", "--quick",
                "--max-position", "--dim", "--memory-limit"},
               "applies only with --exec COMMAND, not to a FILE (a file is compared entry by entry, not by "
               "generated cases)");
  if (flags.full && command.count("--sample") > 0) {
    throw ConventionError("validate: --sample and --full exclude each other (--full compares every entry)");
  }
  reports::TableFileRequest request{flags.file, std::nullopt, {}};
  if (!flags.tensor.empty()) request.tensor = flags.tensor;
  request.options.convention = additive_convention_of(flags);
  request.options.row_offset = parse_offset(flags.offset, "a row offset");
  request.options.max_ulp = flags.max_ulp;
  request.options.max_abs_error = flags.max_abs_error;
  request.options.atol = flags.atol;
  request.options.rtol = flags.rtol;
  request.options.ulp_only = flags.ulp_only;
  if (!flags.dtype.empty()) request.options.compare_as = *parse_format(flags.dtype);
  request.options.sample_rows = flags.sample;
  return reports::validate_table_file(request, output, std::cout);
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
      "With --input IN.npy --positions POS.npy, FILE is a RoPE kernel's output (rotated queries or keys), compared\n"
      "with the exact rotation of IN at POS and with the computation models; --rope/--config name the convention.\n"
      "With --vocabulary VOCAB.npy alone (--convention NAME [--scale S], no FILE), a trained embedding\n"
      "table is measured with the report's input-layer statistics (see --scale); nothing is asserted.\n"
      "Exit status: 0 conforms, 1 deviates or unknown, 2 bad input.\n"
      "Example: pecheck validate pe.npy --json");

  auto flags = std::make_shared<ValidateFlags>();
  add_validate_flags(*command, *flags);
  return {command, [command, flags] {
            const reports::ValidationOutput output{flags->json, flags->output_dir,
                                                   reproduce_command(*command, flags->output_dir)};
            if (flags->rotated()) return validate_rotated(*command, *flags, output);
            if (flags->rotary()) return validate_rotary(*command, *flags, output);
            for (const char* flag : {"--model", "--layout", "--sequence-length", "--layer-type", "--softmax-scale"}) {
              if (command->count(flag) > 0) {
                throw ConventionError("validate: " + std::string(flag) +
                                      " applies only to rotary caches (with --sin, --config or --rope)");
              }
            }
            if (flags->input_layer()) return validate_input_layer(*command, *flags, output);
            return validate_table(*command, *flags, output);
          }};
}

}  // namespace pecheck::tools
