// The format a table's values really have. NumPy has no bfloat16, so a
// bfloat16 table arrives as float32 holding bfloat16 values exactly (and a
// float16 or float32 computation is often saved as float32 or float64):
// comparing such a table in its storage format would charge it for a
// rounding it was never asked to do.
#pragma once

#include <optional>
#include <string>

#include "pecheck/format.hpp"
#include "pecheck/table.hpp"

namespace pecheck::validate {

struct FormatChoice {
  FormatId format;
  std::string note;  // empty when it is the storage format
};

// The narrowest of bfloat16, float16 and float32 (narrower than the storage
// format) that holds every finite value exactly, when at least 8 values are
// neither zero nor +-1 (with fewer, every format holds them: nothing to tell).
FormatChoice narrowest_format(const Table& table);

// `format` when every finite value of the table is one of its values; else a
// message naming the first value that is not.
std::optional<std::string> not_representable(const Table& table, FormatId format);

}  // namespace pecheck::validate
