// `pecheck validate`: the kind of subject the arguments name, the arguments
// that do not apply to it refused (validate_flag_table.cpp), and one call of
// that kind's entry point.
#include "pecheck/reports/validate_arguments.hpp"

#include <iostream>

#include "pecheck/number_text.hpp"
#include "pecheck/reports/rotary_exec_validation.hpp"
#include "pecheck/reports/rotated_exec_validation.hpp"
#include "pecheck/rotary_config.hpp"

namespace pecheck::reports {

namespace {

// "auto", or a row offset (a first position for a rotary cache) in decimal.
std::optional<std::int64_t> parse_offset(const std::string& text, const char* what) {
  if (text == "auto") return std::nullopt;
  const std::optional<std::uint64_t> value = parse_decimal(text);
  if (!value) throw ConventionError("--offset '" + text + "': expected 'auto' or " + what + " >= 0 in decimal digits");
  return static_cast<std::int64_t>(*value);
}

std::optional<RotaryConvention> rotary_convention_of(const ValidateArguments& a) {
  return named_rotary_convention(a.config, a.rope, a.layout, a.sequence_length, a.layer_type);
}

std::optional<Convention> additive_convention_of(const ValidateArguments& a) {
  if (same_name(a.convention, "auto")) return std::nullopt;
  return preset_by_name(a.convention);
}

int run_rotary_exec(const ValidateArguments& a, const ValidationOutput& output) {
  // A rotary cache producer: the blocks it is asked for are pecheck's choice.
  if (!a.file.empty()) throw ConventionError("validate: give the cache FILE or --exec, not both");
  return validate_rotary_exec(rotary_convention_of(a), a.model, a.exec, output.json);
}

int run_rotary_file(const ValidateArguments& a, const ValidationOutput& output, std::ostream& out) {
  if (a.file.empty()) {
    throw ConventionError("validate: the cos cache FILE (or --exec COMMAND) is required with --sin, --config or --rope");
  }
  RotaryFileRequest request{a.file, a.sin, {}};
  request.options.convention = rotary_convention_of(a);
  if (!a.config.empty()) {
    // A config with several layer types: without --layer-type every rule is
    // tried and the one the cache follows said; with it, that one is checked
    // and a cache following another is named so.
    RotaryConfigOptions read;
    read.sequence_length = a.sequence_length;
    if (!a.layout.empty()) read.layout = *parse_rotary_layout(a.layout);
    request.options.layer_types = read_rotary_config_layers(a.config, read);
    if (a.layer_type.empty() && request.options.layer_types.size() > 1) request.options.convention.reset();
  }
  request.options.first_position = parse_offset(a.offset, "a position");
  request.options.max_ulp = a.max_ulp;
  request.options.model = a.model;
  return validate_rotary_files(request, output, out);
}

int run_kernel(const ValidateArguments& a, const ValidationOutput& output) {
  if (a.exec.command.empty()) throw ConventionError("validate: --kernel needs --exec COMMAND (the kernel)");
  if (!a.file.empty()) throw ConventionError("validate: give the output FILE or --kernel --exec, not both");
  return validate_rotated_exec({a.exec, rotary_convention_of(a), a.max_ulp}, output);
}

int run_rotated_file(const ValidateArguments& a, const ValidationOutput& output, std::ostream& out) {
  if (a.file.empty() || a.input.empty() || a.positions.empty()) {
    throw ConventionError("validate: a rotated output needs FILE (the output), --input IN.npy and --positions POS.npy");
  }
  RotatedFileRequest request{a.file, a.input, a.positions, {}};
  request.options.convention = rotary_convention_of(a);
  if (!a.layout.empty()) request.options.layout = parse_rotary_layout(a.layout);
  if (!a.qkv_format.empty()) request.options.qkv_format = validate::parse_qkv_format(a.qkv_format);
  request.options.max_ulp = a.max_ulp;
  return validate_rotated_files(request, output, out);
}

int run_vocabulary(const ValidateArguments& a, const ValidationOutput& output, std::ostream& out) {
  if (same_name(a.convention, "auto")) {
    throw ConventionError(
        "validate: --vocabulary alone needs --convention NAME (the encoding its statistics are measured against)");
  }
  // The encoding's rows over the paper's base model's context unless given; the statistics say which.
  return measure_vocabulary_file({a.vocabulary, *additive_convention_of(a), a.scale, a.context.value_or(512)},
                                 output.json, out);
}

int run_input_layer(const ValidateArguments& a, const ValidationOutput& output, std::ostream& out) {
  if (a.vocabulary.empty() || a.ids.empty()) {
    throw ConventionError("validate: --vocabulary and --ids go together (and --positions needs both)");
  }
  if (a.file.empty()) throw ConventionError("validate: --vocabulary needs FILE, the input layer's output (.npy)");
  InputLayerRequest request{a.file, a.vocabulary, a.ids, a.positions, {}};
  request.options.convention = additive_convention_of(a);
  request.options.max_ulp = a.max_ulp;
  request.options.max_abs_error = a.max_abs_error;
  return validate_input_layer_files(request, output, out);
}

int run_table_exec(const ValidateArguments& a, const ValidationOutput& output) {
  if (!a.file.empty()) throw ConventionError("validate: give FILE or --exec, not both");
  return validate_exec(a.exec, additive_convention_of(a), output.json);
}

int run_table_file(const ValidateArguments& a, const ValidationOutput& output, std::ostream& out) {
  if (a.file.empty()) throw ConventionError("validate: a FILE (.npy or .safetensors) or --exec COMMAND is required");
  if (a.full && a.sample > 0) {
    throw ConventionError("validate: --sample and --full exclude each other (--full compares every entry)");
  }
  TableFileRequest request{a.file, std::nullopt, {}};
  if (!a.tensor.empty()) request.tensor = a.tensor;
  request.options.convention = additive_convention_of(a);
  request.options.row_offset = parse_offset(a.offset, "a row offset");
  request.options.max_ulp = a.max_ulp;
  request.options.max_abs_error = a.max_abs_error;
  request.options.atol = a.atol;
  request.options.rtol = a.rtol;
  request.options.ulp_only = a.ulp_only;
  if (!a.dtype.empty()) request.options.compare_as = *parse_format(a.dtype);
  request.options.sample_rows = a.sample;
  return validate_table_file(request, output, out);
}

}  // namespace

ValidateKind validate_kind_of(const ValidateArguments& a) {
  const bool exec = !a.exec.command.empty();
  if (a.kernel) return ValidateKind::kernel;
  if (!a.input.empty() || !a.qkv_format.empty()) return ValidateKind::rotated_file;
  if (!a.sin.empty() || !a.config.empty() || !a.rope.empty()) {
    return exec ? ValidateKind::rotary_exec : ValidateKind::rotary_file;
  }
  if (!a.vocabulary.empty() && a.ids.empty() && a.positions.empty() && a.file.empty()) return ValidateKind::vocabulary;
  if (!a.vocabulary.empty() || !a.ids.empty() || !a.positions.empty() || a.scale || a.context) {
    return ValidateKind::input_layer;
  }
  return exec ? ValidateKind::table_exec : ValidateKind::table_file;
}

int run_validate(const ValidateArguments& a, const std::string& reproduce, std::ostream& out) {
  refuse_inapplicable_flags(a);
  const ValidationOutput output{a.json, a.output_dir, reproduce};
  if (!a.layer_type.empty() && a.config.empty()) {
    throw ConventionError("validate: --layer-type applies with --config (a config.json's layer types)");
  }
  switch (validate_kind_of(a)) {
    case ValidateKind::table_file: return run_table_file(a, output, out);
    case ValidateKind::table_exec: return run_table_exec(a, output);
    case ValidateKind::rotary_file: return run_rotary_file(a, output, out);
    case ValidateKind::rotary_exec: return run_rotary_exec(a, output);
    case ValidateKind::rotated_file: return run_rotated_file(a, output, out);
    case ValidateKind::kernel: return run_kernel(a, output);
    case ValidateKind::input_layer: return run_input_layer(a, output, out);
    case ValidateKind::vocabulary: return run_vocabulary(a, output, out);
  }
  return 2;
}

}  // namespace pecheck::reports
