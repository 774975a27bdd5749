// User text (paths, file content, a command's output) made fit for an error
// line: printable ASCII and well-formed UTF-8 are kept; control bytes, DEL and
// stray bytes become \xNN, so the text can neither break the one-line error
// promise nor drive a terminal with escape sequences.
#pragma once

#include <string>
#include <string_view>

namespace pecheck {

// `kept` lists control characters left as they are (e.g. "\n\t" for an
// indented excerpt of output shown below a message's first line).
std::string escape_control_characters(std::string_view text, std::string_view kept = {});

// "\x1B": one byte as the escape the functions here write.
std::string hex_escape(unsigned char byte);

}  // namespace pecheck
