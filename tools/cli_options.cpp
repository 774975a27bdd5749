#include "cli_options.hpp"

#include "pecheck/format.hpp"

namespace pecheck::tools {

namespace {

std::string preset_names() {
  std::string names;
  for (const Convention& preset : presets()) {
    if (!names.empty()) names += ", ";
    names += preset.name;
  }
  return names;
}

}  // namespace

CLI::Option* add_convention_option(CLI::App& command, std::string& name) {
  return command
      .add_option("--convention", name, "Convention preset: " + preset_names() + " (see `pecheck conventions`)")
      ->check(CLI::Validator(
          [](std::string& value) -> std::string {
            return find_preset(value) ? std::string{} : "unknown convention '" + value + "' (expected one of " +
                                                            preset_names() + ")";
          },
          "NAME"));
}

CLI::Option* add_dtype_option(CLI::App& command, std::string& dtype) {
  return command.add_option("--dtype", dtype, "Number format: float64, float32, float16 or bfloat16")
      ->check(CLI::IsMember({"float64", "float32", "float16", "bfloat16"}))
      ->capture_default_str();
}

Convention convention_by_name(const std::string& name) {
  auto found = find_preset(name);
  if (!found) throw ConventionError("unknown convention '" + name + "' (expected one of " + preset_names() + ")");
  return *found;
}

}  // namespace pecheck::tools
