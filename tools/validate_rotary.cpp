#include "validate_rotary.hpp"

#include <cstdio>
#include <iostream>

#include "cli_options.hpp"
#include "pecheck/convention.hpp"
#include "pecheck/external_subjects.hpp"
#include "pecheck/reports/report_directory.hpp"
#include "pecheck/rotary_cache_file.hpp"
#include "pecheck/rotary_config.hpp"
#include "pecheck/table_file.hpp"
#include "pecheck/validate/rotary_validation.hpp"
#include "validate_rotary_report.hpp"

namespace pecheck::tools {

namespace {

struct CachePair {
  Table cos;
  Table sin;
};

// One file holding both tables: (2, L, d) stacked, or complex (L, d/2).
CachePair read_combined(const std::string& file) {
  try {
    RotaryCache cache = read_combined_rotary_cache(file);
    return {std::move(cache.cos), std::move(cache.sin)};
  } catch (const TableFileError& e) {
    throw ConventionError(std::string(e.what()) + " (or give the sin table with --sin)");
  }
}

// The command line that writes the same files: every option that shapes the result, as given.
std::string reproduce_command(const RotaryOptions& options, const RotaryCheck& check) {
  std::string command = "pecheck validate " + shell_quote(check.file);
  if (!options.sin.empty()) command += " --sin " + shell_quote(options.sin);
  if (!options.config.empty()) command += " --config " + shell_quote(options.config);
  if (!options.rope.empty()) command += " --rope " + shell_quote(options.rope);
  if (!options.layout.empty()) command += " --layout " + shell_quote(options.layout);
  if (options.sequence_length > 0) command += " --sequence-length " + std::to_string(options.sequence_length);
  command += " --model " + shell_quote(options.model);
  if (check.offset != "auto") command += " --offset " + shell_quote(check.offset);
  if (check.max_ulp) {
    char buffer[32];
    std::snprintf(buffer, sizeof buffer, "%.17g", *check.max_ulp);  // parses back to the same double
    command += " --max-ulp " + std::string(buffer);
  }
  return command + " --output-dir " + shell_quote(check.output_dir);
}

}  // namespace

std::optional<RotaryConvention> rotary_convention_of(const RotaryOptions& options) {
  std::optional<RotaryLayout> layout;
  if (!options.layout.empty()) {
    layout = parse_rotary_layout(options.layout);
    if (!layout)
      throw ConventionError("--layout '" + options.layout + "': expected rotate-half, interleaved or complex");
  }
  std::optional<RotaryConvention> convention;
  if (!options.config.empty()) {
    RotaryConfigOptions config;
    if (layout) config.layout = *layout;
    config.sequence_length = options.sequence_length;
    convention = read_rotary_config(options.config, config);
  } else if (!options.rope.empty() && options.rope != "auto") {
    convention = find_rotary_preset(options.rope);
    if (!convention)
      throw ConventionError("--rope '" + options.rope + "': not a rotary preset (pecheck conventions lists them)");
  }
  if (convention && layout) convention->layout = *layout;
  return convention;
}

void add_rotary_options(CLI::App& command, RotaryOptions& options) {
  command.add_option("--sin", options.sin, "Rotary caches: FILE is the cos table and this the sin table (.npy or .safetensors)");
  command.add_option("--config", options.config,
                     "Rotary caches: the model's Hugging Face config.json (rope_theta, rope_scaling, head_dim, "
                     "partial_rotary_factor)");
  command.add_option("--rope", options.rope, "Rotary caches: a rotary preset, or auto (detect from the cache)");
  command.add_option("--model", options.model,
                     "Rotary caches: the computation model compared beside the exact encoding")
      ->capture_default_str();
  command.add_option("--layout", options.layout, "Rotary caches: rotate-half, interleaved or complex (config.json does not say)");
  command.add_option("--sequence-length", options.sequence_length,
                     "Rotary caches: dynamic NTK's current length and LongRoPE's choice of factors")
      ->transform(whole_number_at_least(0));
}

int validate_rotary_file(const RotaryOptions& options, const RotaryCheck& check) {
  if (!options.config.empty() && !options.rope.empty()) {
    throw ConventionError("validate: --config and --rope exclude each other (both name the convention)");
  }
  validate::RotaryValidationOptions validation;
  validation.convention = rotary_convention_of(options);
  validation.max_ulp = check.max_ulp;
  validation.model = options.model;
  if (check.offset != "auto") {
    const std::optional<std::uint64_t> value = parse_decimal(check.offset);
    if (!value) throw ConventionError("--offset '" + check.offset + "': expected 'auto' or a position >= 0 in decimal digits");
    validation.first_position = static_cast<std::int64_t>(*value);
  }
  // Locked, cleaned and proven writable before the comparison runs.
  std::optional<reports::ReportDirectory> report_directory;
  if (!check.output_dir.empty()) report_directory.emplace(check.output_dir);
  CachePair cache = options.sin.empty() ? read_combined(check.file)
                                        : CachePair{read_table_file(check.file).table, read_table_file(options.sin).table};
  validate::RotaryValidationResult result;
  try {
    result = validate::validate_rotary_cache(cache.cos, cache.sin, validation);
  } catch (const validate::ValidationInputError& e) {
    throw ConventionError(check.file + (options.sin.empty() ? "" : " and " + options.sin) + ": " + e.what());
  }
  const std::string name = check.file + (options.sin.empty() ? "" : " + " + options.sin);
  if (report_directory) {
    // The convention compared against: the detected layout when none was given (as validate_rotary_cache does).
    std::optional<RotaryConvention> convention = result.detection.convention;
    if (convention && !validation.convention) convention->layout = result.detection.layout;
    // The values as compared (a float32 file of bfloat16 values is a bfloat16 cache).
    const Table cos = convert_table(cache.cos.view(), result.format);
    const Table sin = convert_table(cache.sin.view(), result.format);
    write_rotary_report(report_directory->staging(), name, cos, sin, result, convention.value_or(RotaryConvention{}),
                        options.model, reproduce_command(options, check));
    report_directory->commit();
  }
  std::cout << (check.json ? validate::rotary_validation_json(result, name) : validate::rotary_validation_text(result, name));
  return result.verdict == validate::ValidationVerdict::conforms ? 0 : 1;
}

}  // namespace pecheck::tools
