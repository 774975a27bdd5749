// A float .npy array of any rank kept in the format it is stored in: the
// values as a table of rows of the last axis (a rotated output (B, L, H, d)
// is B * L * H rows of d), float16, float32 and float64 as themselves (a
// bfloat16 output, which NumPy writes as float32, stays float32). Memory is
// the payload's size: read_npy_array (npy_array.hpp) holds every value as a
// double, four times a float16 file's size.
#pragma once

#include <cstdint>
#include <filesystem>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "pecheck/table.hpp"

namespace pecheck {

struct NpyTensor {
  std::vector<std::int64_t> shape;  // as the file states it
  std::string dtype;                // as stored: "<f4", ">f2", ...
  Table values;                     // (product of the leading extents) x (the last extent), C order
};

// Checked as read_npy_array checks a file (npy_array.hpp), the dtype a float
// ('<f2', '<f4', '<f8' or '>' for big-endian); read straight into the
// table's storage (swapped for a big-endian file; a Fortran-order array of
// rank 3 or more is reordered through doubles, one copy). A rank-0 or
// rank-1 array is one row. Throws TableFileError naming the file and the field.
NpyTensor read_npy_tensor(const std::filesystem::path& path);
NpyTensor read_npy_tensor_bytes(std::span<const std::byte> bytes, std::string_view display_name);

// Writes `values` as an .npy array of `shape` (the product of its leading
// extents is values.rows(), its last values.cols()): version 1.0, C order,
// little endian, bfloat16 as '<f4' holding its values exactly (as write_npy
// does). Atomic (atomic_file.hpp); a failure is a TableFileError naming path.
void write_npy_tensor(const std::filesystem::path& path, const TableView& values,
                      const std::vector<std::int64_t>& shape);
// Writes positions as a 1-D '<i8' .npy array, atomically.
void write_npy_positions(const std::filesystem::path& path, std::span<const std::int64_t> positions);

}  // namespace pecheck
