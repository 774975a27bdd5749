#include "cli_options.hpp"

#include "pecheck/number_text.hpp"

#include <cctype>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>

#include "pecheck/format.hpp"
#include "pecheck/one_line_text.hpp"

namespace pecheck::tools {

namespace {

std::string preset_names() {
  std::string names;
  for (const Convention& preset : all_presets()) {
    if (!names.empty()) names += ", ";
    names += preset.name;
  }
  return names;
}

// The text with no blanks around it, as CLI11 hands it over.
std::string trimmed(const std::string& text) {
  std::size_t first = 0;
  std::size_t last = text.size();
  while (first < last && std::isspace(static_cast<unsigned char>(text[first])) != 0) ++first;
  while (last > first && std::isspace(static_cast<unsigned char>(text[last - 1])) != 0) --last;
  return text.substr(first, last - first);
}

}  // namespace

CLI::Validator finite_number_at_least(double minimum, bool exclusive) {
  const std::string expected =
      "expected a finite number " + std::string(exclusive ? "> " : ">= ") + significant(minimum, 6);
  return CLI::Validator(
      [minimum, exclusive, expected](std::string& value) -> std::string {
        const std::string text = trimmed(value);
        char* end = nullptr;
        errno = 0;
        const double x = text.empty() ? 0.0 : std::strtod(text.c_str(), &end);
        if (text.empty() || end != text.c_str() + text.size()) return expected + ", got '" + value + "'";
        if (!std::isfinite(x) || errno == ERANGE) return expected + ", got '" + value + "' (not finite)";
        if (exclusive ? !(x > minimum) : !(x >= minimum)) return expected + ", got '" + value + "'";
        return {};
      },
      std::string(exclusive ? "NUMBER>" : "NUMBER>=") + significant(minimum, 6));
}

std::optional<std::uint64_t> parse_decimal(std::string_view text, std::uint64_t max) {
  if (text.empty() || text.size() > 20) return std::nullopt;
  std::uint64_t x = 0;
  for (const char c : text) {
    if (c < '0' || c > '9') return std::nullopt;
    const auto digit = static_cast<std::uint64_t>(c - '0');
    if (x > (UINT64_MAX - digit) / 10) return std::nullopt;
    x = x * 10 + digit;
  }
  if (x > max) return std::nullopt;
  return x;
}

CLI::Validator whole_number_at_least(long long minimum) {
  const std::string expected = "expected a whole number >= " + std::to_string(minimum);
  return CLI::Validator(
      [minimum, expected](std::string& value) -> std::string {
        const std::optional<std::uint64_t> x = parse_decimal(trimmed(value));
        if (!x || static_cast<long long>(*x) < minimum) {
          return expected + ", got '" + escape_control_characters(value) + "' (decimal digits only)";
        }
        value = std::to_string(*x);
        return {};
      },
      "INT>=" + std::to_string(minimum));
}

CLI::Validator seed_number() {
  return CLI::Validator(
      [](std::string& value) -> std::string {
        const std::string text = trimmed(value);
        std::optional<std::uint64_t> seed;
        if (text.size() > 2 && text[0] == '0' && (text[1] == 'x' || text[1] == 'X')) {
          const std::string digits = text.substr(2);
          if (digits.size() <= 16 && digits.find_first_not_of("0123456789abcdefABCDEF") == std::string::npos) {
            seed = std::strtoull(digits.c_str(), nullptr, 16);
          }
        } else {
          seed = parse_decimal(text, UINT64_MAX);
        }
        if (!seed) {
          return "expected a seed from 0 to 0xffffffffffffffff (decimal or 0x hex), got '" +
                 escape_control_characters(value) + "'";
        }
        value = std::to_string(*seed);
        return {};
      },
      "SEED");
}

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
