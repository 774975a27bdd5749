// The part of an .npy file every reader shares: the preamble (magic, version,
// header length) and the header dict, checked as npy.hpp describes; what the
// data means (dtype, shape) is the caller's to check.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "byte_source.hpp"
#include "npy_header.hpp"

namespace pecheck::detail {

struct NpyLayout {
  std::string version;     // "1.0", "2.0" or "3.0"
  NpyHeader header;
  std::size_t data_start;  // offset of the first data byte
};

// Reads the preamble and the header, and nothing past them. Throws
// TableFileError naming the source.
NpyLayout read_npy_layout(const ByteSource& source);

// "(3, 4)", "(5,)", "()": as NumPy prints a shape.
std::string npy_shape_text(const std::vector<std::uint64_t>& shape);

}  // namespace pecheck::detail
