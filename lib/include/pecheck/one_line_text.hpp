// User text (paths, file content, a command's output) made fit for an error
// line: printable ASCII and well-formed UTF-8 are kept; control bytes, DEL and
// stray bytes become \xNN, so the text can neither break the one-line error
// promise nor drive a terminal with escape sequences.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace pecheck {

// `kept` lists control characters left as they are (e.g. "\n\t" for an
// indented excerpt of output shown below a message's first line).
std::string escape_control_characters(std::string_view text, std::string_view kept = {});

// "\x1B": one byte as the escape the functions here write.
std::string hex_escape(unsigned char byte);

// At most about `max_bytes` of `text`, escaped as above; a longer text is cut
// (on a UTF-8 boundary) and ends "... (N bytes)", so an error line never
// echoes a 100 MB value.
std::string excerpt(std::string_view text, std::size_t max_bytes = 60);
// The excerpt in single quotes: 'text' or 'tex... (N bytes)'.
std::string quoted_excerpt_of(std::string_view text, std::size_t max_bytes = 60);

}  // namespace pecheck
