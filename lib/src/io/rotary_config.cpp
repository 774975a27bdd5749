// config.json to RotaryConvention, reading the fields transformers' rope code
// reads (modeling_rope_utils.py and the models' config classes), with the
// same defaults: rope_theta 10000, partial_rotary_factor 1, head_dim
// hidden_size / num_attention_heads, rope_scaling's "type" as an older name
// of "rope_type" and "su" as LongRoPE's.
#include "pecheck/rotary_config.hpp"

#include <algorithm>
#include <cmath>
#include <iterator>
#include <nlohmann/json.hpp>

#include "config_reader.hpp"
#include "ggml_rope_params.hpp"
#include "pecheck/json_input.hpp"
#include "pecheck/one_line_text.hpp"

namespace pecheck {

namespace {

using nlohmann::json;
using config_detail::ConfigReader;

RotaryScalingKind scaling_kind(const ConfigReader& reader, const std::string& where, const std::string& name) {
  // "mrope" (Qwen2-VL) is the default rule with sections (transformers maps it so).
  if (name == "default" || name == "mrope") return RotaryScalingKind::none;
  // "proportional" (Gemma 4): the default rule over head_dim, the pairs past
  // the rotary fraction at 0, then inv_freq /= factor (read_scaling).
  if (name == "proportional") return RotaryScalingKind::linear;
  if (name == "linear") return RotaryScalingKind::linear;
  if (name == "dynamic") return RotaryScalingKind::dynamic_ntk;
  if (name == "ntk") return RotaryScalingKind::ntk;
  if (name == "yarn") return RotaryScalingKind::yarn;
  if (name == "longrope" || name == "su") return RotaryScalingKind::longrope;
  if (name == "llama3") return RotaryScalingKind::llama3;
  reader.fail(where + ".rope_type",
              "one of default, mrope, proportional, linear, dynamic, ntk, yarn, longrope (or su), llama3; found '" + excerpt(name) +
                  "'");
}

// One rule's fields: an old-style rope_scaling object, or one set of
// transformers v5's rope_parameters (the same fields beside rope_theta).
// `scope` is the object holding the model's fields (the config, or its
// text_config), for LongRoPE's original_max_position_embeddings.
void read_scaling(const ConfigReader& reader, const std::string& where, const json& scope, const json& scaling,
                  RotaryConvention& c) {
  if (!scaling.is_object()) reader.fail(where, "an object or null");
  const auto type = scaling.contains("rope_type") ? scaling.find("rope_type") : scaling.find("type");
  if (type == scaling.end() || !type->is_string()) reader.fail(where + ".rope_type", "a string (or 'type')");
  c.mrope_section = reader.integers(scaling, "mrope_section", where + ".mrope_section");
  c.mrope_interleaved = reader.boolean(scaling, "mrope_interleaved", where + ".mrope_interleaved").value_or(false);
  RotaryScaling& s = c.scaling;
  s.kind = scaling_kind(reader, where, type->get<std::string>());
  if (type->get<std::string>() == "proportional") {
    // _compute_proportional_rope_parameters: factor defaults to 1.0 (no scaling).
    c.partial_form = PartialRotaryForm::proportional;
    s.factor = reader.number(scaling, "factor", where + ".factor").value_or(1.0);
    if (s.factor == 1.0) s.kind = RotaryScalingKind::none;
    return;
  }
  if (s.kind == RotaryScalingKind::none) return;
  const std::int64_t max_position = c.max_position;
  const std::optional<double> factor = reader.number(scaling, "factor", where + ".factor");
  if (!factor && s.kind != RotaryScalingKind::longrope) reader.fail(where + ".factor", "a number");
  s.factor = factor.value_or(1.0);
  s.original_max_position =
      reader.integer(scaling, "original_max_position_embeddings", where + ".original_max_position_embeddings")
          .value_or(max_position);
  if (s.kind == RotaryScalingKind::dynamic_ntk) s.original_max_position = max_position;
  s.low_freq_factor = reader.number(scaling, "low_freq_factor", where + ".low_freq_factor").value_or(1.0);
  s.high_freq_factor = reader.number(scaling, "high_freq_factor", where + ".high_freq_factor").value_or(4.0);
  if (s.kind == RotaryScalingKind::llama3) {
    for (const char* key : {"low_freq_factor", "high_freq_factor", "original_max_position_embeddings"}) {
      if (!scaling.contains(key)) reader.fail(where + "." + key, "a number (llama3 needs it)");
    }
  }
  // `rope_scaling.get("beta_fast") or 32`: a 0 falls back as an absent field does.
  const double beta_fast = reader.number(scaling, "beta_fast", where + ".beta_fast").value_or(0.0);
  const double beta_slow = reader.number(scaling, "beta_slow", where + ".beta_slow").value_or(0.0);
  s.beta_fast = beta_fast != 0.0 ? beta_fast : 32.0;
  s.beta_slow = beta_slow != 0.0 ? beta_slow : 1.0;
  s.truncate = reader.boolean(scaling, "truncate", where + ".truncate").value_or(true);
  s.mscale = reader.number(scaling, "mscale", where + ".mscale");
  s.mscale_all_dim = reader.number(scaling, "mscale_all_dim", where + ".mscale_all_dim");
  s.long_factor = reader.numbers(scaling, "long_factor", where + ".long_factor");
  s.short_factor = reader.numbers(scaling, "short_factor", where + ".short_factor");
  if (s.kind == RotaryScalingKind::longrope) {
    // _compute_longrope_parameters: with a top-level original_max_position_embeddings
    // (Phi-3), the factor is max_position_embeddings / original.
    if (const auto original =
            reader.integer(scope, "original_max_position_embeddings", "original_max_position_embeddings")) {
      s.original_max_position = *original;
      s.factor = static_cast<double>(max_position) / static_cast<double>(*original);
    }
  }
  c.attention_factor = reader.number(scaling, "attention_factor", where + ".attention_factor");
}

// The parser's callback: the top-level members this reader looks at are
// built, every other one (label maps, vocabularies, quantization settings) is
// skipped as it is parsed, so a config's memory follows what is read. Members
// of the objects kept (text_config, rope_scaling, rope_parameters and its
// layer types) are small and kept whole. A member of an object that is itself
// skipped is never built whatever this answers.
bool keep_fields_read(int depth, json::parse_event_t event, json& parsed) {
  if (event != json::parse_event_t::key || depth != 1) return true;
  static constexpr std::string_view top_level[] = {
      "rope_theta", "head_dim", "hidden_size", "num_attention_heads", "partial_rotary_factor",
      "max_position_embeddings", "rope_scaling", "original_max_position_embeddings", "text_config",
      "rope_parameters", "rope_local_base_freq", "qk_rope_head_dim", "qk_nope_head_dim", "global_head_dim",
      // ggml's rope parameters
      "freq_base", "freq_scale", "ext_factor", "attn_factor", "beta_fast", "beta_slow", "n_ctx_orig", "n_dims",
      "mode"};
  const std::string& key = parsed.get_ref<const std::string&>();
  return std::find(std::begin(top_level), std::end(top_level), key) != std::end(top_level);
}

// One rule of the config: its layer type ("" when the config has one), the
// object holding its fields (null: the default rule) and its rope_theta.
struct RuleSource {
  std::string layer_type;
  std::string where;  // the field path for errors
  const json* scaling = nullptr;
  double base = 10000.0;
  std::string base_field;
};

bool is_one_rule(const json& parameters) {
  return parameters.contains("rope_type") || parameters.contains("type") || parameters.contains("rope_theta");
}

std::vector<RuleSource> rule_sources(const ConfigReader& reader, const json& scope, const std::string& prefix) {
  const double theta = reader.number(scope, "rope_theta", prefix + "rope_theta").value_or(10000.0);
  std::vector<RuleSource> rules;
  if (const auto it = scope.find("rope_parameters"); it != scope.end() && !it->is_null()) {
    // transformers v5: one rule, or one per layer type ({"full_attention": {...}, "sliding_attention": {...}}).
    const std::string where = prefix + "rope_parameters";
    if (!it->is_object() || it->empty()) reader.fail(where, "an object (one rule, or one per layer type)");
    if (is_one_rule(*it)) {
      rules.push_back({"", where, &*it, theta, prefix + "rope_theta"});
    } else {
      for (const auto& [layer, rule] : it->items()) {
        const std::string field = where + "." + excerpt(layer);
        if (!rule.is_object()) reader.fail(field, "an object of rope parameters for layer type '" + excerpt(layer) + "'");
        rules.push_back({layer, field, &rule, theta, prefix + "rope_theta"});
      }
    }
    for (RuleSource& r : rules) {
      r.base_field = r.where + ".rope_theta";
      r.base = reader.number(*r.scaling, "rope_theta", r.base_field).value_or(theta);
    }
    return rules;
  }
  const auto scaling = scope.find("rope_scaling");
  const json* rule = scaling != scope.end() && !scaling->is_null() ? &*scaling : nullptr;
  const auto local = reader.number(scope, "rope_local_base_freq", prefix + "rope_local_base_freq");
  // Gemma 3: global layers take rope_theta and rope_scaling; sliding layers
  // rope_local_base_freq with the default rule (Gemma3 modeling's rotary_emb_local).
  rules.push_back({local ? "full_attention" : "", prefix + "rope_scaling", rule, theta, prefix + "rope_theta"});
  if (local) rules.push_back({"sliding_attention", prefix + "rope_local_base_freq", nullptr, *local,
                              prefix + "rope_local_base_freq"});
  return rules;
}

}  // namespace

std::vector<RotaryConvention> parse_rotary_config_layers(std::string_view json_text, std::string_view file_name,
                                                         const RotaryConfigOptions& options) {
  const ConfigReader reader(file_name);
  json config;
  try {
    require_json_structure(json_text, file_name);
    config = json::parse(json_text, keep_fields_read);
  } catch (const JsonInputError& error) {
    throw RotaryConfigError(error.what());
  } catch (const json::exception& error) {
    // parse_error, and out_of_range for a number past a double's range: the
    // message quotes the token read, which may be the whole of a huge value.
    throw RotaryConfigError(std::string(file_name) + ": not JSON: " + excerpt(error.what(), 160));
  }
  if (!config.is_object()) reader.fail("(top level)", "a JSON object");
  // A vision-language or multimodal config (Gemma 3, Qwen3-VL) keeps the
  // language model's fields in text_config.
  const json* scope = &config;
  std::string prefix;
  if (const auto it = config.find("text_config"); it != config.end() && !it->is_null()) {
    if (!it->is_object()) reader.fail("text_config", "an object or null");
    scope = &*it;
    prefix = "text_config.";
  }
  RotaryConvention c;
  c.source = std::string(file_name) + " (Hugging Face config.json)";
  c.layout = options.layout;
  if (config.contains("freq_base")) {
    c.scaling.sequence_length = options.sequence_length;
    RotaryConvention layer = config_detail::ggml_convention(reader, config, c);
    layer.name = "ggml " + std::string(file_name);
    try {
      check_rotary_convention(layer);
      check_rotary_results(layer);
    } catch (const ConventionError& error) {
      throw RotaryConfigError(std::string(file_name) + ": " + error.what());
    }
    return {layer};
  }
  // DeepseekV3Config: head_dim is qk_rope_head_dim, the rotary part of each
  // head; the softmax scales by (qk_nope_head_dim + qk_rope_head_dim)^-1/2.
  std::optional<std::int64_t> head_dim = reader.integer(*scope, "qk_rope_head_dim", prefix + "qk_rope_head_dim");
  if (head_dim) {
    const auto nope = reader.integer(*scope, "qk_nope_head_dim", prefix + "qk_nope_head_dim").value_or(0);
    if (nope < 0 || nope > max_dim) reader.fail(prefix + "qk_nope_head_dim", "a whole number from 0 to " + std::to_string(max_dim));
    c.query_key_dim = *head_dim + nope;
  } else {
    head_dim = reader.integer(*scope, "head_dim", prefix + "head_dim");
  }
  if (!head_dim) {
    const auto hidden = reader.integer(*scope, "hidden_size", prefix + "hidden_size");
    const auto heads = reader.integer(*scope, "num_attention_heads", prefix + "num_attention_heads");
    if (!hidden) reader.fail(prefix + "hidden_size", "a whole number (or head_dim)");
    if (!heads || *heads < 1) reader.fail(prefix + "num_attention_heads", "a positive whole number (or head_dim)");
    head_dim = *hidden / *heads;
  }
  c.head_dim = *head_dim;
  c.rotary_fraction =
      reader.number(*scope, "partial_rotary_factor", prefix + "partial_rotary_factor").value_or(1.0);
  c.max_position =
      reader.integer(*scope, "max_position_embeddings", prefix + "max_position_embeddings").value_or(2048);
  c.scaling.sequence_length = options.sequence_length;

  std::vector<RotaryConvention> layers;
  for (const RuleSource& rule : rule_sources(reader, *scope, prefix)) {
    RotaryConvention layer = c;
    layer.layer_type = rule.layer_type;
    layer.name = "config " + std::string(file_name) + (rule.layer_type.empty() ? "" : " [" + excerpt(rule.layer_type) + "]");
    layer.base = rule.base;
    // Gemma 4: full-attention layers have wider heads, global_head_dim (its
    // rotary embedding reads them through head_dim_key for those layers).
    if (rule.layer_type == "full_attention") {
      if (const auto wide = reader.integer(*scope, "global_head_dim", prefix + "global_head_dim")) layer.head_dim = *wide;
    }
    if (rule.scaling) {
      // v5 may move partial_rotary_factor into the rule.
      layer.rotary_fraction =
          reader.number(*rule.scaling, "partial_rotary_factor", rule.where + ".partial_rotary_factor")
              .value_or(c.rotary_fraction);
      read_scaling(reader, rule.where, *scope, *rule.scaling, layer);
    }
    layer.scaling.sequence_length = options.sequence_length;
    try {
      check_rotary_convention(layer);
      check_rotary_results(layer);
    } catch (const ConventionError& error) {
      throw RotaryConfigError(std::string(file_name) + ": " + error.what());
    }
    layers.push_back(std::move(layer));
  }
  return layers;
}

RotaryConvention parse_rotary_config(std::string_view json_text, std::string_view file_name,
                                     const RotaryConfigOptions& options) {
  std::vector<RotaryConvention> layers = parse_rotary_config_layers(json_text, file_name, options);
  return choose_layer_type(std::move(layers), options.layer_type, file_name);
}

RotaryConvention choose_layer_type(std::vector<RotaryConvention> layers, std::string_view layer_type,
                                   std::string_view file_name) {
  // Without a name: the only rule, or the full-attention layers' (the
  // scaled ones, which every layer of a model without layer types uses).
  const std::string_view wanted = !layer_type.empty() ? layer_type
                                  : layers.size() == 1 ? std::string_view(layers.front().layer_type)
                                                       : std::string_view("full_attention");
  for (RotaryConvention& layer : layers) {
    if (layer.layer_type == wanted) return std::move(layer);
  }
  std::string listed;
  for (const RotaryConvention& layer : layers) {
    listed += (listed.empty() ? "" : ", ") + (layer.layer_type.empty() ? std::string("(one rule for every layer)") : layer.layer_type);
  }
  throw RotaryConfigError(std::string(file_name) + ": --layer-type '" + excerpt(wanted) +
                          "': expected one of the config's layer types: " + listed);
}

std::vector<RotaryConvention> read_rotary_config_layers(const std::filesystem::path& file,
                                                        const RotaryConfigOptions& options) {
  std::string text;
  try {
    text = read_json_input(file, max_rotary_config_bytes, "config.json");
  } catch (const JsonInputError& error) {
    throw RotaryConfigError(error.what());
  }
  return parse_rotary_config_layers(text, escape_control_characters(file.string()), options);
}

RotaryConvention read_rotary_config(const std::filesystem::path& file, const RotaryConfigOptions& options) {
  return choose_layer_type(read_rotary_config_layers(file, options), options.layer_type,
                           escape_control_characters(file.string()));
}

std::optional<RotaryConvention> named_rotary_convention(const std::string& config, const std::string& preset,
                                                        const std::string& layout, std::int64_t sequence_length,
                                                        const std::string& layer_type) {
  if (!config.empty() && !preset.empty()) {
    throw ConventionError("validate: --config and --rope exclude each other (both name the convention)");
  }
  std::optional<RotaryLayout> pairing;
  if (!layout.empty()) {
    pairing = parse_rotary_layout(layout);
    if (!pairing) throw ConventionError("--layout '" + layout + "': expected rotate-half, interleaved or complex");
  }
  std::optional<RotaryConvention> convention;
  if (!config.empty()) {
    RotaryConfigOptions options;
    if (pairing) options.layout = *pairing;
    options.sequence_length = sequence_length;
    options.layer_type = layer_type;
    convention = read_rotary_config(config, options);
  } else if (!preset.empty() && preset != "auto") {
    convention = find_rotary_preset(preset);
    if (!convention) throw ConventionError("--rope '" + preset + "': not a rotary preset (pecheck conventions lists them)");
  }
  if (convention && pairing) convention->layout = *pairing;
  return convention;
}

}  // namespace pecheck
