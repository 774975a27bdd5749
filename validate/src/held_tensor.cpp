#include "pecheck/validate/held_tensor.hpp"

#include <utility>

#include "pecheck/npy_tensor.hpp"

namespace pecheck::validate {

HeldTensor owned_tensor(std::vector<std::int64_t> shape, Table values) {
  HeldTensor held;
  held.shape = std::move(shape);
  auto owned = std::make_shared<const Table>(std::move(values));
  held.values = owned->view();
  held.owned = std::move(owned);
  return held;
}

HeldTensor borrowed_tensor(std::vector<std::int64_t> shape, const TableView& values) {
  HeldTensor held;
  held.shape = std::move(shape);
  held.values = values;
  return held;
}

HeldTensor read_held_tensor(const std::filesystem::path& path) {
  // Typed: read_npy_array's doubles would take two to four times the file
  // (a bfloat16 tensor is float32 in .npy).
  NpyTensor tensor = read_npy_tensor(path);
  return owned_tensor(std::move(tensor.shape), std::move(tensor.values));
}

}  // namespace pecheck::validate
