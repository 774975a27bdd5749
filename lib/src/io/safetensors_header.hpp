// The JSON header of a .safetensors file, parsed and checked against the
// data area it describes.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace pecheck::detail {

struct SafetensorsEntry {
  std::string name;
  std::string dtype;                 // as stored: "F32", "BF16", "I64", ...
  std::vector<std::uint64_t> shape;
  std::uint64_t begin = 0;           // data_offsets, relative to the data area
  std::uint64_t end = 0;
};

struct SafetensorsHeader {
  std::vector<SafetensorsEntry> tensors;  // sorted by name
  std::map<std::string, std::string> metadata;
};

// The size in bytes of one element of a safetensors dtype, or nullopt for a
// dtype this reader does not know the size of (or that packs below a byte).
std::optional<int> safetensors_itemsize(std::string_view dtype);

// Parses the header (already checked to be UTF-8 and to start with '{') and
// checks every entry against a data area of data_bytes bytes: see
// safetensors.hpp for the rules. Throws TableFileError naming display_name.
SafetensorsHeader parse_safetensors_header(std::string_view json_text, std::uint64_t data_bytes,
                                           std::string_view display_name);

}  // namespace pecheck::detail
