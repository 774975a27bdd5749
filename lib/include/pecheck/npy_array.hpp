// NumPy .npy arrays of any rank, float or integer: what `pecheck validate
// OUTPUT --vocabulary V --ids I` reads besides tables (token ids are
// integers, an input layer's output is (batch, length, d)).
//
// The file is checked as read_npy checks a table (npy.hpp: version, header,
// explicit byte order, the shape accounting for every data byte), except that
// any rank is accepted and the dtype may also be a signed or unsigned integer
// of 1, 2, 4 or 8 bytes ('<i4', '<i8', '|u1', ...). One-byte dtypes have no
// byte order and are written with '|'; wider ones must state '<' or '>'.
#pragma once

#include <cstdint>
#include <filesystem>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "pecheck/format.hpp"

namespace pecheck {

struct NpyArray {
  std::vector<std::int64_t> shape;
  std::string dtype;       // as stored: "<f4", "<i8", "|u1", ...
  bool integer = false;    // an integer dtype: `integers` holds the values, else `values`
  FormatId format = FormatId::float32;  // float dtypes: the format of `values`
  std::vector<double> values;           // row-major (C order), whatever the file's order
  std::vector<std::int64_t> integers;   // row-major

  std::int64_t size() const { return static_cast<std::int64_t>(integer ? integers.size() : values.size()); }
};

// Throws TableFileError naming the file, the field and what was expected; an
// unsigned 8-byte value above 2^63 - 1 is refused with its index.
NpyArray read_npy_array(const std::filesystem::path& path);
NpyArray read_npy_array_bytes(std::span<const std::byte> bytes, std::string_view display_name);

// "(2, 16, 64)": as NumPy prints a shape.
std::string shape_text(const std::vector<std::int64_t>& shape);

}  // namespace pecheck
