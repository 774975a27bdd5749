// Little helpers for reading untrusted bytes: fixed-width integers in either
// byte order (independent of the host's), UTF-8 validation, and a quoted,
// escaped excerpt of file content fit for a one-line error message.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "pecheck/table_file.hpp"

namespace pecheck::detail {

// The width-byte unsigned integer at bytes[0, width); the caller checks the length.
inline std::uint64_t load_uint(std::span<const std::byte> bytes, int width, ByteOrder order) {
  std::uint64_t value = 0;
  for (int i = 0; i < width; ++i) {
    const int index = order == ByteOrder::little ? width - 1 - i : i;
    value = (value << 8) | std::to_integer<std::uint64_t>(bytes[static_cast<std::size_t>(index)]);
  }
  return value;
}

inline void append_uint_le(std::vector<std::byte>& out, std::uint64_t value, int width) {
  for (int i = 0; i < width; ++i) out.push_back(static_cast<std::byte>((value >> (8 * i)) & 0xff));
}

inline std::string_view as_chars(std::span<const std::byte> bytes) {
  return {reinterpret_cast<const char*>(bytes.data()), bytes.size()};
}

// The offset of the first byte that does not belong to well-formed UTF-8
// (overlong forms, surrogates and code points past U+10FFFF are ill-formed),
// or nullopt when all of text is well-formed.
std::optional<std::size_t> first_invalid_utf8(std::string_view text);

// At most max_chars of text in quotes (single, or double when it holds a
// single quote), with control, quote, backslash and non-ASCII bytes as \xNN
// escapes: '<f4', '\x93NUMPY', "'fortran"...
std::string quoted_excerpt(std::string_view text, std::size_t max_chars = 40);

}  // namespace pecheck::detail
