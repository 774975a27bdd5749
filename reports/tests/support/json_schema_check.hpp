// A JSON Schema validator for the subset of draft 2020-12 that
// reports/schema/report.schema.json uses: $ref into $defs, type, const, enum,
// required, properties, items, anyOf, minimum and pattern. Any other keyword
// in the schema is an error here rather than silently ignored, so the schema
// cannot grow a constraint these tests do not enforce.
#pragma once

#include <regex>
#include <set>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace pecheck::reports::testing {

class SchemaChecker {
 public:
  explicit SchemaChecker(nlohmann::json schema) : root_(std::move(schema)) {}

  // Every violation, as "path: what"; empty when the document is valid.
  std::vector<std::string> validate(const nlohmann::json& document) const {
    std::vector<std::string> errors;
    check(root_, document, "$", errors);
    return errors;
  }

 private:
  static bool has_type(const nlohmann::json& value, const std::string& type) {
    if (type == "object") return value.is_object();
    if (type == "array") return value.is_array();
    if (type == "string") return value.is_string();
    if (type == "integer") return value.is_number_integer();
    if (type == "number") return value.is_number();
    if (type == "boolean") return value.is_boolean();
    if (type == "null") return value.is_null();
    throw std::runtime_error("schema uses unknown type " + type);
  }

  const nlohmann::json& resolve(const std::string& ref) const {
    const std::string prefix = "#/$defs/";
    if (ref.rfind(prefix, 0) != 0) throw std::runtime_error("unsupported $ref " + ref);
    return root_.at("$defs").at(ref.substr(prefix.size()));
  }

  void check(const nlohmann::json& schema, const nlohmann::json& value, const std::string& path,
             std::vector<std::string>& errors) const {
    static const std::set<std::string> annotations = {"$schema", "$id", "title", "description", "$defs"};
    for (const auto& [keyword, argument] : schema.items()) {
      if (annotations.count(keyword)) continue;
      if (keyword == "$ref") {
        check(resolve(argument.get<std::string>()), value, path, errors);
      } else if (keyword == "type") {
        if (!has_type(value, argument.get<std::string>())) errors.push_back(path + ": not of type " + argument.dump());
      } else if (keyword == "const") {
        if (value != argument) errors.push_back(path + ": not " + argument.dump());
      } else if (keyword == "enum") {
        bool found = false;
        for (const auto& allowed : argument) found = found || value == allowed;
        if (!found) errors.push_back(path + ": " + value.dump() + " not in " + argument.dump());
      } else if (keyword == "required") {
        if (!value.is_object()) continue;
        for (const auto& key : argument) {
          if (!value.contains(key.get<std::string>())) errors.push_back(path + ": missing " + key.dump());
        }
      } else if (keyword == "properties") {
        if (!value.is_object()) continue;
        for (const auto& [key, sub] : argument.items()) {
          if (value.contains(key)) check(sub, value.at(key), path + "." + key, errors);
        }
      } else if (keyword == "items") {
        if (!value.is_array()) continue;
        for (std::size_t i = 0; i < value.size(); ++i)
          check(argument, value[i], path + "[" + std::to_string(i) + "]", errors);
      } else if (keyword == "anyOf") {
        bool any = false;
        for (const auto& option : argument) {
          std::vector<std::string> sub_errors;
          check(option, value, path, sub_errors);
          any = any || sub_errors.empty();
        }
        if (!any) errors.push_back(path + ": matches none of anyOf");
      } else if (keyword == "minimum") {
        if (value.is_number() && value.get<double>() < argument.get<double>()) {
          errors.push_back(path + ": below minimum " + argument.dump());
        }
      } else if (keyword == "pattern") {
        if (value.is_string() &&
            !std::regex_search(value.get<std::string>(), std::regex(argument.get<std::string>()))) {
          errors.push_back(path + ": does not match " + argument.dump());
        }
      } else {
        throw std::runtime_error("the schema uses keyword '" + keyword + "', which this checker does not enforce");
      }
    }
  }

  nlohmann::json root_;
};

}  // namespace pecheck::reports::testing
