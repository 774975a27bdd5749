// config.json to RotaryConvention, reading the fields transformers' rope code
// reads (modeling_rope_utils.py and the models' config classes), with the
// same defaults: rope_theta 10000, partial_rotary_factor 1, head_dim
// hidden_size / num_attention_heads, rope_scaling's "type" as an older name
// of "rope_type" and "su" as LongRoPE's.
#include "pecheck/rotary_config.hpp"

#include <algorithm>
#include <iterator>
#include <nlohmann/json.hpp>

#include "pecheck/json_input.hpp"
#include "pecheck/one_line_text.hpp"

namespace pecheck {

namespace {

using nlohmann::json;

class ConfigReader {
 public:
  ConfigReader(std::string_view file) : file_(file) {}

  [[noreturn]] void fail(std::string_view field, std::string_view expected) const {
    throw RotaryConfigError(std::string(file_) + ": field '" + std::string(field) + "': expected " +
                            std::string(expected));
  }

  std::optional<double> number(const json& object, std::string_view key, std::string_view field) const {
    const auto it = object.find(key);
    if (it == object.end() || it->is_null()) return std::nullopt;
    if (!it->is_number()) fail(field, "a number, found " + json_value_text(*it));
    return it->get<double>();
  }

  std::optional<std::int64_t> integer(const json& object, std::string_view key, std::string_view field) const {
    const auto it = object.find(key);
    if (it == object.end() || it->is_null()) return std::nullopt;
    // An unsigned value past INT64_MAX would wrap around to a negative one.
    if (it->is_number_unsigned() && it->get<std::uint64_t>() > INT64_MAX) {
      fail(field, "a whole number below 2^63, found " + json_value_text(*it));
    }
    if (it->is_number_integer()) return it->get<std::int64_t>();
    if (it->is_number_float()) {
      const double v = it->get<double>();
      if (v == std::floor(v) && std::fabs(v) < 9.0e15) return static_cast<std::int64_t>(v);
    }
    fail(field, "a whole number, found " + json_value_text(*it));
  }

  std::vector<double> numbers(const json& object, std::string_view key, std::string_view field) const {
    const auto it = object.find(key);
    if (it == object.end() || it->is_null()) return {};
    if (!it->is_array()) fail(field, "an array of numbers");
    std::vector<double> values;
    for (const json& v : *it) {
      if (!v.is_number()) fail(field, "an array of numbers, found " + json_value_text(v) + " in it");
      values.push_back(v.get<double>());
    }
    return values;
  }

 private:
  std::string file_;
};

RotaryScalingKind scaling_kind(const ConfigReader& reader, const std::string& name) {
  if (name == "default") return RotaryScalingKind::none;
  if (name == "linear") return RotaryScalingKind::linear;
  if (name == "dynamic") return RotaryScalingKind::dynamic_ntk;
  if (name == "ntk") return RotaryScalingKind::ntk;
  if (name == "yarn") return RotaryScalingKind::yarn;
  if (name == "longrope" || name == "su") return RotaryScalingKind::longrope;
  if (name == "llama3") return RotaryScalingKind::llama3;
  reader.fail("rope_scaling.rope_type",
              "one of default, linear, dynamic, ntk, yarn, longrope (or su), llama3; found '" +
                  excerpt(name) + "'");
}

void read_scaling(const ConfigReader& reader, const json& config, const json& scaling, RotaryConvention& c,
                  std::int64_t max_position) {
  if (!scaling.is_object()) reader.fail("rope_scaling", "an object or null");
  const auto type = scaling.contains("rope_type") ? scaling.find("rope_type") : scaling.find("type");
  if (type == scaling.end() || !type->is_string()) reader.fail("rope_scaling.rope_type", "a string (or 'type')");
  RotaryScaling& s = c.scaling;
  s.kind = scaling_kind(reader, type->get<std::string>());
  if (s.kind == RotaryScalingKind::none) return;
  const std::optional<double> factor = reader.number(scaling, "factor", "rope_scaling.factor");
  if (!factor && s.kind != RotaryScalingKind::longrope) reader.fail("rope_scaling.factor", "a number");
  s.factor = factor.value_or(1.0);
  s.original_max_position =
      reader.integer(scaling, "original_max_position_embeddings", "rope_scaling.original_max_position_embeddings")
          .value_or(max_position);
  if (s.kind == RotaryScalingKind::dynamic_ntk) s.original_max_position = max_position;
  s.low_freq_factor = reader.number(scaling, "low_freq_factor", "rope_scaling.low_freq_factor").value_or(1.0);
  s.high_freq_factor = reader.number(scaling, "high_freq_factor", "rope_scaling.high_freq_factor").value_or(4.0);
  if (s.kind == RotaryScalingKind::llama3) {
    for (const char* key : {"low_freq_factor", "high_freq_factor", "original_max_position_embeddings"}) {
      if (!scaling.contains(key)) reader.fail(std::string("rope_scaling.") + key, "a number (llama3 needs it)");
    }
  }
  s.beta_fast = reader.number(scaling, "beta_fast", "rope_scaling.beta_fast").value_or(32.0);
  s.beta_slow = reader.number(scaling, "beta_slow", "rope_scaling.beta_slow").value_or(1.0);
  if (const auto it = scaling.find("truncate"); it != scaling.end() && !it->is_null()) {
    if (!it->is_boolean()) reader.fail("rope_scaling.truncate", "true or false");
    s.truncate = it->get<bool>();
  }
  s.mscale = reader.number(scaling, "mscale", "rope_scaling.mscale");
  s.mscale_all_dim = reader.number(scaling, "mscale_all_dim", "rope_scaling.mscale_all_dim");
  s.long_factor = reader.numbers(scaling, "long_factor", "rope_scaling.long_factor");
  s.short_factor = reader.numbers(scaling, "short_factor", "rope_scaling.short_factor");
  if (s.kind == RotaryScalingKind::longrope) {
    // _compute_longrope_parameters: with a top-level original_max_position_embeddings
    // (Phi-3), the factor is max_position_embeddings / original.
    if (const auto original =
            reader.integer(config, "original_max_position_embeddings", "original_max_position_embeddings")) {
      s.original_max_position = *original;
      s.factor = static_cast<double>(max_position) / static_cast<double>(*original);
    }
  }
  c.attention_factor = reader.number(scaling, "attention_factor", "rope_scaling.attention_factor");
}

// The parser's callback: the top-level members this reader looks at are
// built, every other one (label maps, vocabularies, quantization settings) is
// skipped as it is parsed, so a config's memory follows what is read.
// Members of rope_scaling (depth 2) likewise. A member of an object that is
// itself skipped is never built whatever this answers.
bool keep_fields_read(int depth, json::parse_event_t event, json& parsed) {
  if (event != json::parse_event_t::key || depth > 2) return true;
  static constexpr std::string_view top_level[] = {
      "rope_theta",  "head_dim",     "hidden_size", "num_attention_heads", "partial_rotary_factor",
      "max_position_embeddings", "rope_scaling", "original_max_position_embeddings"};
  static constexpr std::string_view in_scaling[] = {
      "rope_type", "type", "factor", "original_max_position_embeddings", "low_freq_factor", "high_freq_factor",
      "beta_fast", "beta_slow", "truncate", "mscale", "mscale_all_dim", "long_factor", "short_factor",
      "attention_factor"};
  const std::string& key = parsed.get_ref<const std::string&>();
  if (depth == 1) return std::find(std::begin(top_level), std::end(top_level), key) != std::end(top_level);
  return std::find(std::begin(in_scaling), std::end(in_scaling), key) != std::end(in_scaling);
}

}  // namespace

RotaryConvention parse_rotary_config(std::string_view json_text, std::string_view file_name,
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
  RotaryConvention c;
  c.name = "config " + std::string(file_name);
  c.source = std::string(file_name) + " (Hugging Face config.json)";
  c.layout = options.layout;
  c.base = reader.number(config, "rope_theta", "rope_theta").value_or(10000.0);
  std::optional<std::int64_t> head_dim = reader.integer(config, "head_dim", "head_dim");
  if (!head_dim) {
    const auto hidden = reader.integer(config, "hidden_size", "hidden_size");
    const auto heads = reader.integer(config, "num_attention_heads", "num_attention_heads");
    if (!hidden) reader.fail("hidden_size", "a whole number (or head_dim)");
    if (!heads || *heads < 1) reader.fail("num_attention_heads", "a positive whole number (or head_dim)");
    head_dim = *hidden / *heads;
  }
  c.head_dim = *head_dim;
  c.rotary_fraction = reader.number(config, "partial_rotary_factor", "partial_rotary_factor").value_or(1.0);
  c.max_position = reader.integer(config, "max_position_embeddings", "max_position_embeddings").value_or(2048);
  if (const auto it = config.find("rope_scaling"); it != config.end() && !it->is_null()) {
    read_scaling(reader, config, *it, c, c.max_position);
  }
  c.scaling.sequence_length = options.sequence_length;
  try {
    check_rotary_convention(c);
    check_rotary_results(c);
  } catch (const ConventionError& error) {
    throw RotaryConfigError(std::string(file_name) + ": " + error.what());
  }
  return c;
}

RotaryConvention read_rotary_config(const std::filesystem::path& file, const RotaryConfigOptions& options) {
  std::string text;
  try {
    text = read_json_input(file, max_rotary_config_bytes, "config.json");
  } catch (const JsonInputError& error) {
    throw RotaryConfigError(error.what());
  }
  return parse_rotary_config(text, escape_control_characters(file.string()), options);
}

}  // namespace pecheck
