// A tensor a validation reads, held in the format it is stored in: its
// shape, and its values as rows of the last axis (rows = the product of the
// other extents), read in place. Either a file's payload the subject owns,
// or a caller's buffer (a NumPy array or PyTorch tensor in Python) that must
// outlive the subject. Never widened to doubles: a bfloat16 tensor is read
// at its own size. A rotated output's OUT and IN and an input layer's
// OUTPUT and VOCAB are held so.
#pragma once

#include <cstdint>
#include <filesystem>
#include <memory>
#include <vector>

#include "pecheck/table.hpp"

namespace pecheck::validate {

struct HeldTensor {
  std::vector<std::int64_t> shape;
  TableView values;
  std::shared_ptr<const Table> owned;  // the values when the subject holds them; empty for a caller's buffer
};

// The tensor holding `values` (rows x shape.back(), C order).
HeldTensor owned_tensor(std::vector<std::int64_t> shape, Table values);
// The tensor reading `values` where they are (the caller keeps them alive).
HeldTensor borrowed_tensor(std::vector<std::int64_t> shape, const TableView& values);
// A .npy file read typed, at its own size (NpyError names the file).
HeldTensor read_held_tensor(const std::filesystem::path& path);

}  // namespace pecheck::validate
