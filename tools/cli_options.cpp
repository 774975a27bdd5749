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

CLI::Validator finite_number_at_least(double minimum, bool exclusive) {
  const std::string expected =
      "expected a finite number " + std::string(exclusive ? "> " : ">= ") + significant(minimum, 6);
  return CLI::Validator(
      [minimum, exclusive, expected](std::string& value) -> std::string {
        // Blanks anywhere are refused, as by parse_decimal: strtod would
        // skip leading ones and a trailing newline would end the number.
        const std::string& text = value;
        char* end = nullptr;
        errno = 0;
        const bool blank = text.find_first_of(" \t\n\r\v\f") != std::string::npos;
        const double x = text.empty() || blank ? 0.0 : std::strtod(text.c_str(), &end);
        const std::string got = ", got " + quoted_excerpt_of(value);
        if (text.empty() || blank || end != text.c_str() + text.size()) return expected + got;
        if (!std::isfinite(x) || errno == ERANGE) return expected + got + " (not finite)";
        if (exclusive ? !(x > minimum) : !(x >= minimum)) return expected + got;
        return {};
      },
      std::string(exclusive ? "NUMBER>" : "NUMBER>=") + significant(minimum, 6));
}

CLI::Validator whole_number_at_least(long long minimum) {
  const std::string expected = "expected a whole number >= " + std::to_string(minimum);
  return CLI::Validator(
      [minimum, expected](std::string& value) -> std::string {
        const std::optional<std::uint64_t> x = parse_decimal(value);
        if (!x || static_cast<long long>(*x) < minimum) {
          return expected + ", got " + quoted_excerpt_of(value) + " (decimal digits only)";
        }
        value = std::to_string(*x);
        return {};
      },
      "INT>=" + std::to_string(minimum));
}

CLI::Validator seed_number() {
  return CLI::Validator(
      [](std::string& value) -> std::string {
        const std::string& text = value;
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
          return "expected a seed from 0 to 0xffffffffffffffff (decimal or 0x hex), got " + quoted_excerpt_of(value);
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
            return find_preset(value) ? std::string{} : "unknown convention " + quoted_excerpt_of(value) + " (expected one of " +
                                                            preset_names() + ")";
          },
          "NAME"));
}

CLI::Option* add_dtype_option(CLI::App& command, std::string& dtype) {
  return command.add_option("--dtype", dtype, "Number format: float64, float32, float16 or bfloat16")
      ->check(CLI::IsMember({"float64", "float32", "float16", "bfloat16"}))
      ->capture_default_str();
}

}  // namespace pecheck::tools
