// A hand-made .npy file, for tests of what a reader does with headers that
// NumPy itself would not write (byte orders, Fortran order, odd shapes).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace pecheck::testing {

// An .npy file (version 1.0) with this header dict and these data bytes.
inline std::vector<std::byte> npy_bytes(const std::string& dict, const std::vector<std::uint8_t>& data) {
  std::string header = dict;
  while ((10 + header.size() + 1) % 64 != 0) header += ' ';
  header += '\n';
  std::string text = "\x93NUMPY";
  text += '\x01';
  text += '\x00';
  text += static_cast<char>(header.size() & 0xff);
  text += static_cast<char>(header.size() >> 8);
  text += header;
  std::vector<std::byte> bytes;
  for (const char c : text) bytes.push_back(static_cast<std::byte>(c));
  for (const std::uint8_t b : data) bytes.push_back(std::byte{b});
  return bytes;
}

}  // namespace pecheck::testing
