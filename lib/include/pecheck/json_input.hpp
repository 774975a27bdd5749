// What every JSON input pecheck reads (a Hugging Face config.json, a sweep
// part) goes through before and after nlohmann parses it: a size limit
// checked before the bytes are read, a nesting limit checked before the
// parser builds anything, and short descriptions of values for error lines.
//
// Why before: nlohmann's parser is iterative, but a value nested 100000
// deep is still built, and dump() and the comparison operators walk it by
// recursion, so one such value in a number field overflowed the stack while
// its error message was being written. The messages here never dump a value:
// they name its JSON type, or quote a short excerpt of a scalar.
#pragma once

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>

#include "pecheck/one_line_text.hpp"

namespace pecheck {

// A JSON input refused before it was parsed: too large, nested too deep, or
// unreadable. The message names the file.
class JsonInputError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// The deepest nesting of arrays and objects accepted. A config.json nests 3
// levels (rope_parameters by layer type, then the rule's arrays); a sweep part
// 4 (worst_ulp.exact.hi). 64 leaves room and keeps every recursive walk of
// the parsed value (destruction, dump, comparison) a few kilobytes of stack.
inline constexpr std::size_t max_json_depth = 64;

// The most elements one array or object may hold. A parsed container costs
// about 16 bytes an element, and nlohmann's destructor, which must not throw,
// allocates as much again to take a container apart without recursion: with
// this bound that is at most 1 MiB, so running out of memory is an exception
// pecheck reports, never std::terminate. A config.json's largest arrays are
// LongRoPE's factors (d/2 <= 8192 values) and its largest objects label maps
// (22k entries for ImageNet-22k classifiers).
inline constexpr std::size_t max_json_elements = std::size_t{1} << 16;

struct JsonStructureProblem {
  enum Kind { too_deep, too_many_elements } kind;
  std::size_t offset;  // the byte where the limit was passed
};

// The first place where arrays and objects in `text` nest deeper than
// max_depth or one holds more than max_elements elements, or nullopt.
// Brackets and commas inside strings do not count. Linear, with no recursion.
std::optional<JsonStructureProblem> json_structure_problem(std::string_view text, std::size_t max_depth = max_json_depth,
                                                           std::size_t max_elements = max_json_elements);
// The byte offset at which arrays and objects nest deeper than `limit`, or nullopt.
std::optional<std::size_t> json_nesting_beyond(std::string_view text, std::size_t limit = max_json_depth);

// The whole of `file`, at most `limit` bytes: a larger file is refused from
// its size, before any of it is read ("FILE: N bytes, more than the LIMIT
// bytes a WHAT may have"). `what` names the kind of file ("config.json").
std::string read_json_input(const std::filesystem::path& file, std::uint64_t limit, std::string_view what);

// `text` refused with JsonInputError when it nests deeper than max_json_depth
// or a container holds more than max_json_elements, naming the file and the offset.
void require_json_structure(std::string_view text, std::string_view file);

// A JSON value for an error line, never its full text: a number, true, false
// or null as written (a number's text is short), a string as a quoted excerpt,
// an array or object by its type and size ("an array of 3 values").
template <class Json>
std::string json_value_text(const Json& value) {
  if (value.is_string()) return "the string " + quoted_excerpt_of(value.template get_ref<const std::string&>());
  if (value.is_array()) return "an array of " + std::to_string(value.size()) + " values";
  if (value.is_object()) return "an object of " + std::to_string(value.size()) + " members";
  return excerpt(value.dump());
}

}  // namespace pecheck
