// What every fuzz target of a text input asserts about its errors: one line
// that names the input first and stays short whatever the input held.
#pragma once

#include <cstdlib>
#include <string>
#include <string_view>

namespace pecheck::fuzz {

inline void require(bool condition) {
  if (!condition) std::abort();
}

inline void check_one_line_error(std::string_view message, std::string_view name, std::size_t most_bytes = 2000) {
  require(message.find('\n') == std::string_view::npos);
  require(message.substr(0, name.size()) == name);
  require(message.size() <= most_bytes);
}

}  // namespace pecheck::fuzz
