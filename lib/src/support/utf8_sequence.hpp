// The length of a well-formed UTF-8 sequence, for the text escaping of error lines.
#pragma once

#include <cstddef>
#include <string_view>

namespace pecheck {

// The length of the well-formed UTF-8 sequence starting at text[pos], or 0
// (a stray byte, an overlong form, a surrogate, past U+10FFFF, cut short).
std::size_t utf8_sequence_length(std::string_view text, std::size_t pos);

}  // namespace pecheck
