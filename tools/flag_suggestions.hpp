// "did you mean": an unknown --flag named with the command's option closest
// to it, in place of CLI11's "The following arguments were not expected".
#pragma once

#include <optional>
#include <string>

#include <CLI/CLI.hpp>

namespace pecheck::tools {

// For the first argument of argv (after the command's name) that starts
// with "--" and is none of `command`'s option names: "unknown option --X
// for `pecheck validate`; did you mean --Y?" when an option is close to it
// (edit distance at most a third of its length, or a known synonym), or the
// same without the suggestion. nullopt when every --flag is known.
std::optional<std::string> unknown_flag_message(const CLI::App& command, int argc, const char* const* argv);

// Levenshtein distance (insertions, deletions, substitutions, each 1).
std::size_t edit_distance(const std::string& a, const std::string& b);

}  // namespace pecheck::tools
