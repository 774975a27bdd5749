// The rows and columns of an array read as a table. Encoding buffers are
// dumped as they are registered, not only as (N, d): (N, 1, d) with a batch
// or head axis after the positions, (1, N, d) with a batch axis before them
// (fairseq, ESPnet, x-transformers keep `pe` as (1, max_len, d)), and
// (1, 1, N, d) for attention-shaped caches. Extents of 1 change neither the
// C nor the Fortran order of the others, so those arrays are read as (N, d).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace pecheck::detail {

struct TableExtents {
  std::uint64_t rows = 0;
  std::uint64_t cols = 0;
  bool squeezed = false;  // a 3-D or 4-D array whose extra extents of 1 were dropped
};

// (d,) is one row of d columns, (N, d) N rows; (N, 1, d), (1, N, d) and
// (1, 1, N, d) are N rows. Empty for any other shape.
inline std::optional<TableExtents> table_extents(const std::vector<std::uint64_t>& shape) {
  switch (shape.size()) {
    case 1: return TableExtents{1, shape[0], false};
    case 2: return TableExtents{shape[0], shape[1], false};
    case 3:
      if (shape[1] == 1) return TableExtents{shape[0], shape[2], true};
      if (shape[0] == 1) return TableExtents{shape[1], shape[2], true};
      return std::nullopt;
    case 4:
      if (shape[0] == 1 && shape[1] == 1) return TableExtents{shape[2], shape[3], true};
      return std::nullopt;
    default: return std::nullopt;
  }
}

// What a shape refused as a table looks like instead: a (2, rows, d) stack is
// how a rotary cache is saved alone (cos then sin, rotary_cache_file.hpp).
inline std::string refused_shape_hint(const std::vector<std::uint64_t>& shape) {
  if (shape.size() == 3 && shape[0] == 2) {
    return " (a (2, rows, d) array looks like a rotary cache, cos then sin: validate it with --rope auto, "
           "--rope PRESET or --config config.json)";
  }
  return "";
}

inline constexpr const char* table_shapes_accepted = "1 or 2 dimensions, or (N, 1, d), (1, N, d) or (1, 1, N, d)";

}  // namespace pecheck::detail
