// Typed reads of config.json fields whose errors name the file and the field
// (its path from the top, "text_config.rope_scaling.factor") and what was
// expected, quoting at most a short excerpt of the value found.
#pragma once

#include <cmath>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "pecheck/json_input.hpp"
#include "pecheck/rotary_config.hpp"

namespace pecheck::config_detail {

class ConfigReader {
 public:
  using json = nlohmann::json;
  explicit ConfigReader(std::string_view file) : file_(file) {}

  [[noreturn]] void fail(std::string_view field, std::string_view expected) const {
    throw RotaryConfigError(std::string(file_) + ": field '" + std::string(field) + "': expected " +
                            std::string(expected));
  }

  // Every number read must be finite: JSON has no NaN or infinity, but a
  // literal past a double's range is refused by the parser already.
  std::optional<double> number(const json& object, std::string_view key, std::string_view field) const {
    const auto it = object.find(key);
    if (it == object.end() || it->is_null()) return std::nullopt;
    if (!it->is_number()) fail(field, "a number, found " + json_value_text(*it));
    return it->get<double>();
  }

  std::optional<std::int64_t> integer(const json& object, std::string_view key, std::string_view field) const {
    const auto it = object.find(key);
    if (it == object.end() || it->is_null()) return std::nullopt;
    return whole(*it, field);
  }

  std::int64_t whole(const json& value, std::string_view field) const {
    // An unsigned value past INT64_MAX would wrap around to a negative one.
    if (value.is_number_unsigned() && value.get<std::uint64_t>() > INT64_MAX) {
      fail(field, "a whole number below 2^63, found " + json_value_text(value));
    }
    if (value.is_number_integer()) return value.get<std::int64_t>();
    if (value.is_number_float()) {
      const double v = value.get<double>();
      if (v == std::floor(v) && std::fabs(v) < 9.0e15) return static_cast<std::int64_t>(v);
    }
    fail(field, "a whole number, found " + json_value_text(value));
  }

  std::optional<bool> boolean(const json& object, std::string_view key, std::string_view field) const {
    const auto it = object.find(key);
    if (it == object.end() || it->is_null()) return std::nullopt;
    if (!it->is_boolean()) fail(field, "true or false, found " + json_value_text(*it));
    return it->get<bool>();
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

  std::vector<std::int64_t> integers(const json& object, std::string_view key, std::string_view field) const {
    const auto it = object.find(key);
    if (it == object.end() || it->is_null()) return {};
    if (!it->is_array()) fail(field, "an array of whole numbers");
    std::vector<std::int64_t> values;
    for (const json& v : *it) values.push_back(whole(v, field));
    return values;
  }

 private:
  std::string file_;
};

}  // namespace pecheck::config_detail
