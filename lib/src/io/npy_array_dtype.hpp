// The dtypes read_npy_array accepts (npy_array.hpp), parsed from an .npy
// header's descr: shared with the rotary cache reader, which reads float and
// complex arrays without decoding them to double first.
#pragma once

#include <string>
#include <string_view>

#include "pecheck/table_file.hpp"

namespace pecheck::detail {

struct ArrayDtype {
  char kind;  // 'f', 'i', 'u', or 'c' (complex: two floats of `itemsize` bytes per value)
  int itemsize;
  ByteOrder byte_order;
  int components = 1;  // 2 for complex
};

// Throws TableFileError naming `name` and the field "descr".
ArrayDtype parse_array_descr(const std::string& descr, std::string_view name);

}  // namespace pecheck::detail
