#include <iostream>
#include <memory>
#include <string>

#include "cli_options.hpp"
#include "commands.hpp"
#include "pecheck/reference/rotary_reference.hpp"
#include "pecheck/rotary_cache.hpp"
#include "pecheck/rotary_config.hpp"
#include "pecheck/table_file.hpp"

namespace pecheck::tools {

namespace {

std::string names_of_presets() {
  std::string names;
  for (const RotaryConvention& c : rotary_presets()) names += (names.empty() ? "" : ", ") + c.name;
  return names;
}

std::string names_of_models() {
  std::string names = "exact";
  for (const ComputationModel& m : computation_models()) names += ", " + m.name;
  return names;
}

}  // namespace

Command add_rope_command(CLI::App& app) {
  CLI::App* command = app.add_subcommand(
      "rope",
      "Write a rotary (RoPE) cos and sin cache pair to .npy or .safetensors files (by extension).\n"
      "Row r holds position K + r; each entry is attention_factor * cos(p * inv_freq_i) (and sin) for the\n"
      "column's frequency i: columns c and c + d/2 share i in the rotate-half layout, 2i and 2i + 1 in the\n"
      "interleaved one, and the complex layout has d/2 columns (Meta's precompute_freqs_cis as cos and sin).\n"
      "The convention is a preset (pecheck conventions lists them with their sources) or a Hugging Face\n"
      "config.json (rope_theta, rope_scaling, head_dim or hidden_size / num_attention_heads,\n"
      "partial_rotary_factor, max_position_embeddings).\n"
      "--computation exact (the default) is the exact encoding: --impl fast is within the additive tables'\n"
      "budgets (float32 1 ULP), --impl reference is correctly rounded. --computation hf-float32 is what\n"
      "transformers computes: inv_freq step by step in float32, float32 positions and angles p * inv_freq,\n"
      "each entry then correctly rounded from the exact cos of that float32 angle (the oracle an engine\n"
      "port must reproduce). A computation model is written by the reference unless --impl fast is given:\n"
      "the fast path computes hf-float32 (float32, float16, bfloat16), each entry within 0.5 + 2^-20 ULP\n"
      "of the model's correctly rounded value.\n"
      "Example: pecheck rope --preset llama3.1 --rows 8192 --computation hf-float32 --cos cos.npy --sin sin.npy");
  struct Options {
    std::string preset;
    std::string config;
    std::string layout;
    std::int64_t rows = 0;
    std::int64_t first_position = 0;
    std::int64_t sequence_length = 0;
    std::string layer_type;
    std::string dtype = "float32";
    std::string computation = "exact";
    std::string impl = "fast";
    std::string cos_output;
    std::string sin_output;
  };
  auto options = std::make_shared<Options>();
  CLI::Option* preset = command->add_option("--preset", options->preset, "Rotary preset: " + names_of_presets());
  CLI::Option* config = command->add_option("--config", options->config, "A Hugging Face config.json");
  preset->excludes(config);
  command
      ->add_option("--layout", options->layout,
                   "With --config: rotate-half (default, transformers), interleaved or complex")
      ->check(CLI::IsMember({"rotate-half", "interleaved", "complex"}));
  command->add_option("--rows", options->rows, "Number of rows N")->required()->transform(whole_number_at_least(1));
  command->add_option("--first-position", options->first_position, "Position K of row 0")
      ->transform(whole_number_at_least(0))
      ->capture_default_str();
  command
      ->add_option("--sequence-length", options->sequence_length,
                   "The current length: dynamic NTK's L, LongRoPE's long factors beyond the original length")
      ->transform(whole_number_at_least(0));
  command->add_option("--layer-type", options->layer_type,
                      "With --config: the layer type whose rule to write (full_attention, sliding_attention, ...; "
                      "default: the only rule, or full_attention's)");
  add_dtype_option(*command, options->dtype);
  command->add_option("--computation", options->computation, "exact or a computation model: " + names_of_models())
      ->capture_default_str();
  CLI::Option* impl =
      command->add_option("--impl", options->impl, "fast or reference; with --computation the reference unless fast is given (hf-float32 only)")
          ->check(CLI::IsMember({"fast", "reference"}))
          ->capture_default_str();
  command->add_option("--cos", options->cos_output, "Output file of the cos cache (.npy or .safetensors)")->required();
  command->add_option("--sin", options->sin_output, "Output file of the sin cache (.npy or .safetensors)")->required();

  return {command, [options, preset, config, impl] {
            if (preset->count() == 0 && config->count() == 0) throw ConventionError("--preset or --config: give one");
            RotaryConvention convention;
            if (preset->count() > 0) {
              const std::optional<RotaryConvention> found = find_rotary_preset(options->preset);
              if (!found)
                throw ConventionError("--preset '" + options->preset + "' is unknown: expected one of " +
                                      names_of_presets());
              if (!options->layout.empty())
                throw ConventionError("--layout: a preset fixes its layout; use it with --config");
              if (!options->layer_type.empty())
                throw ConventionError("--layer-type: a preset has one rule; use it with --config");
              convention = *found;
              convention.scaling.sequence_length = options->sequence_length;
            } else {
              RotaryConfigOptions read_options;
              read_options.sequence_length = options->sequence_length;
              read_options.layer_type = options->layer_type;
              if (!options->layout.empty()) read_options.layout = *parse_rotary_layout(options->layout);
              convention = read_rotary_config(options->config, read_options);
            }
            std::optional<ComputationModel> model;
            if (options->computation != "exact") {
              model = find_computation_model(options->computation);
              if (!model) {
                throw ConventionError("--computation '" + options->computation + "' is unknown: expected one of " +
                                      names_of_models());
              }
            }
            const RotaryCacheRequest request{options->first_position, options->rows, *parse_format(options->dtype)};
            check_rotary_request(convention, request);
            // A model is the reference's unless --impl fast is given explicitly
            // (the default --impl is for the exact encoding).
            const bool fast_model = model && impl->count() > 0 && options->impl == "fast";
            const RotaryCache cache =
                fast_model ? fast_rotary_model_cache(convention, request, *model)
                : model || options->impl == "reference"
                    ? reference::rotary_reference_cache(convention, request, model, 0, reference::ExactValues::none).rounded
                    : fast_rotary_cache(convention, request);
            write_table_file(options->cos_output, cache.cos);
            write_table_file(options->sin_output, cache.sin);
            return 0;
          }};
}

}  // namespace pecheck::tools
