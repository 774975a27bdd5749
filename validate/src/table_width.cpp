#include "table_width.hpp"

namespace pecheck::validate {

std::optional<std::string> width_problem(const Convention& convention, std::int64_t cols) {
  const std::string table = "the table has " + std::to_string(cols) + (cols == 1 ? " column; " : " columns; ");
  if (cols < convention.min_dim) {
    return table + convention.name + " needs a width of at least " + std::to_string(convention.min_dim) +
           " (the original divides by d/2 - 1)";
  }
  if (cols % 2 == 1 && convention.odd_dim == OddDimPolicy::reject) {
    return table + convention.name + " needs an even width";
  }
  return std::nullopt;
}

}  // namespace pecheck::validate
