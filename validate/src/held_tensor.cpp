#include "pecheck/validate/held_tensor.hpp"

#include <utility>

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

}  // namespace pecheck::validate
