// The Python dict literal at the head of an .npy file, parsed strictly.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace pecheck::detail {

struct NpyHeader {
  std::string descr;                 // as written, e.g. "<f4"
  bool fortran_order = false;
  std::vector<std::uint64_t> shape;  // each at most 2^63 - 1
};

// text is the whole header (after the length field, before the data):
//   {'descr': '<f4', 'fortran_order': False, 'shape': (3, 4), }   ...spaces...\n
// Only what NumPy writes and Python would read back as the same dict is
// accepted: the three keys exactly once each in any order, string values
// in single or double quotes without escapes, True or False, a tuple of
// non-negative decimal integers, an optional trailing comma, spaces between
// tokens; after the closing brace only spaces and one final newline.
// A structured dtype (a list of fields) is refused by name.
// Throws TableFileError naming display_name.
NpyHeader parse_npy_header(std::string_view text, std::string_view display_name);

}  // namespace pecheck::detail
