// Text for a terminal: lines broken at spaces so that none is longer than
// the width (a word longer than the width, a path or a command line, stays
// whole on a line of its own rather than being cut).
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace pecheck {

// `text` (one paragraph; newlines in it are kept as breaks) as lines of at
// most `width` characters, each ending in '\n'; the first line starts with
// `first_indent`, the ones it continues onto with `indent`.
std::string wrap_text(std::string_view text, std::size_t width, std::string_view first_indent,
                      std::string_view indent);

// Every line of `text` wrapped to `width`, continuation lines indented two
// spaces past the line's own leading spaces. Lines already short enough are
// left as they are.
std::string wrap_lines(std::string_view text, std::size_t width);

}  // namespace pecheck
