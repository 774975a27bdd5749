#include "flag_suggestions.hpp"

#include <algorithm>
#include <utility>
#include <vector>

namespace pecheck::tools {

std::size_t edit_distance(const std::string& a, const std::string& b) {
  std::vector<std::size_t> row(b.size() + 1);
  for (std::size_t j = 0; j <= b.size(); ++j) row[j] = j;
  for (std::size_t i = 1; i <= a.size(); ++i) {
    std::size_t diagonal = row[0];
    row[0] = i;
    for (std::size_t j = 1; j <= b.size(); ++j) {
      const std::size_t above = row[j];
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, diagonal + (a[i - 1] == b[j - 1] ? 0 : 1)});
      diagonal = above;
    }
  }
  return row[b.size()];
}

namespace {

// Names people bring from other tools for options pecheck spells otherwise;
// edit distance cannot find these.
const std::vector<std::pair<std::string, std::string>> synonyms = {
    {"--tolerance", "--max-abs-error"}, {"--tol", "--max-abs-error"}, {"--ulp", "--max-ulp"},
    {"--ulps", "--max-ulp"},           {"--preset", "--convention"},  {"--output", "--output-dir"},
    {"--out", "--output-dir"},         {"--cmd", "--exec"},           {"--command", "--exec"},
    {"--max-len", "--max-position"},   {"--max-length", "--max-position"},
    {"--d-model", "--dim"},            {"--width", "--dim"},
};

bool has_option(const CLI::App& command, const std::string& name) {
  for (const CLI::Option* option : command.get_options()) {
    for (const std::string& known : option->get_lnames()) {
      if ("--" + known == name) return true;
    }
  }
  return name == "--help" || name == "--help-all";
}

std::optional<std::string> closest_option(const CLI::App& command, const std::string& flag) {
  for (const auto& [from, to] : synonyms) {
    if (from == flag && has_option(command, to)) return to;
  }
  std::optional<std::string> best;
  std::size_t best_distance = std::max<std::size_t>(2, (flag.size() - 2) / 3) + 1;
  for (const CLI::Option* option : command.get_options()) {
    for (const std::string& known : option->get_lnames()) {
      const std::size_t distance = edit_distance(flag, "--" + known);
      if (distance < best_distance) {
        best_distance = distance;
        best = "--" + known;
      }
    }
  }
  return best;
}

}  // namespace

std::optional<std::string> unknown_flag_message(const CLI::App& command, int argc, const char* const* argv) {
  for (int k = 2; k < argc; ++k) {
    const std::string argument = argv[k];
    if (argument == "--") break;  // what follows is positional
    if (argument.size() < 3 || argument.rfind("--", 0) != 0) continue;
    const std::string flag = argument.substr(0, argument.find('='));
    if (has_option(command, flag)) continue;
    std::string message = "unknown option " + flag + " for `pecheck " + command.get_name() + "`";
    if (const std::optional<std::string> suggestion = closest_option(command, flag)) {
      message += "; did you mean " + *suggestion + "?";
    }
    return message + " (see pecheck " + command.get_name() + " --help)";
  }
  return std::nullopt;
}

}  // namespace pecheck::tools
