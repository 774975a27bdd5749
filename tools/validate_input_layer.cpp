#include "pecheck/reports/report_directory.hpp"
#include "validate_input_layer.hpp"

#include <optional>
#include <iostream>

#include "cli_options.hpp"
#include "pecheck/npy_array.hpp"
#include "pecheck/validate/input_layer.hpp"
#include "pecheck/validate/vocabulary.hpp"
#include "validate_report.hpp"

namespace pecheck::tools {

void add_input_layer_options(CLI::App& command, InputLayerOptions& options) {
  command.add_option("--vocabulary", options.vocabulary,
                     "With --ids: FILE is an input layer's output x = s E[id] + PE[pos] ((B, L, d) or (B*L, d) .npy),\n"
                     "VOCAB the (V, d) embedding table E. The scale s is measured from tokens at the same\n"
                     "position (their difference is s (E[a] - E[b]), whatever PE is) and named against sqrt(d):\n"
                     "missing, applied twice, divided, rounded to bfloat16/float16; then PE = x - s E[id] is\n"
                     "validated as a table. Needs at least two sequences whose ids differ at the same positions, or\n"
                     "--convention NAME: then s is fitted against that convention's encoding");
  command.add_option("--ids", options.ids, "The (B, L) or (L,) integer token ids (.npy int32/int64), with --vocabulary");
  command.add_option("--positions", options.positions,
                     "The positions of the tokens (.npy integers, as --ids or (L,)); default 0..L-1 in each sequence");
  command
      .add_option("--scale", options.scale,
                  "With --vocabulary alone (no FILE, no --ids): the embedding scale s (default sqrt(d)). Prints the\n"
                  "report's input-layer statistics of the table s*E against --convention NAME over positions\n"
                  "0..P-1 (--context): energy ratio to the encoding, share in the encoding's 99% subspace, and the\n"
                  "shares of the first-layer logit variance at initialisation; observations, exit 0")
      ->check(finite_number_at_least(0, true));
  command
      .add_option("--context", options.context,
                  "With --vocabulary alone: the context length P, the encoding's positions 0..P-1 the statistics\n"
                  "are measured against (default 512, the paper's base model; the subspace a token shares with\n"
                  "the encoding grows with P)")
      ->check(CLI::Range(std::int64_t{2}, std::int64_t{1} << 24));
}

int validate_vocabulary_file(const InputLayerOptions& options, const InputLayerCheck& check) {
  if (check.convention == "auto") {
    throw ConventionError(
        "validate: --vocabulary alone needs --convention NAME (the encoding its statistics are measured against)");
  }
  if (check.max_ulp || check.max_abs_error || !check.output_dir.empty()) {
    throw ConventionError(
        "validate: --max-ulp, --max-abs-error and --output-dir do not apply to --vocabulary alone (nothing is "
        "compared: its statistics are printed)");
  }
  const Convention convention = convention_by_name(check.convention);
  // The encoding's rows over the paper's base model's context unless given; the statistics say which.
  const std::int64_t positions = options.context.value_or(512);
  validate::VocabularyResult result;
  try {
    result = validate::measure_vocabulary(read_npy_array(options.vocabulary), options.vocabulary, convention,
                                          options.scale, positions);
  } catch (const validate::ValidationInputError& e) {
    throw ConventionError(e.what());
  }
  std::cout << (check.json ? validate::vocabulary_json(result, options.vocabulary)
                           : validate::vocabulary_text(result, options.vocabulary));
  return 0;
}

int validate_input_layer_file(const InputLayerOptions& options, const InputLayerCheck& check) {
  if (options.vocabulary_alone() && check.output.empty()) return validate_vocabulary_file(options, check);
  if (options.scale) throw ConventionError("validate: --scale applies only to --vocabulary alone (without --ids)");
  if (options.context) throw ConventionError("validate: --context applies only to --vocabulary alone (without --ids)");
  if (options.vocabulary.empty() || options.ids.empty()) {
    throw ConventionError("validate: --vocabulary and --ids go together (and --positions needs both)");
  }
  if (check.output.empty()) throw ConventionError("validate: --vocabulary needs FILE, the input layer's output (.npy)");
  validate::InputLayerFiles files;
  files.output = read_npy_array(check.output);
  files.vocabulary = read_npy_array(options.vocabulary);
  files.ids = read_npy_array(options.ids);
  if (!options.positions.empty()) files.positions = read_npy_array(options.positions);
  files.output_name = check.output;
  files.vocabulary_name = options.vocabulary;
  files.ids_name = options.ids;
  files.positions_name = options.positions.empty() ? "the default positions" : options.positions;
  validate::ValidationOptions validation;
  if (check.convention != "auto") validation.convention = convention_by_name(check.convention);
  validation.max_ulp = check.max_ulp;
  validation.max_abs_error = check.max_abs_error;
  std::optional<reports::ReportDirectory> report_directory;
  if (!check.output_dir.empty()) report_directory.emplace(check.output_dir);
  const validate::InputLayerResult result = validate::validate_input_layer(files, validation);
  if (report_directory) {
    write_input_layer_report(report_directory->staging(), check.output, result);
    report_directory->commit();
  }
  std::cout << (check.json ? validate::input_layer_json(result, check.output)
                           : validate::input_layer_text(result, check.output));
  return result.verdict == validate::ValidationVerdict::conforms ? 0 : 1;
}

}  // namespace pecheck::tools
