#include "pecheck/produced_table.hpp"

#include <algorithm>

namespace pecheck {

std::int64_t rows_per_block(const ProducedTable& table, std::int64_t target_bytes) {
  const std::int64_t row_bytes = std::max<std::int64_t>(1, table.cols) * storage_bytes(table.format);
  return std::max<std::int64_t>(1, target_bytes / row_bytes);
}

}  // namespace pecheck
