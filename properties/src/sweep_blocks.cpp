#include "pecheck/properties/sweep_blocks.hpp"

#include <algorithm>

namespace pecheck::properties {

std::vector<TableRequest> sweep_blocks(std::int64_t dim, std::int64_t rows_per_block, bool full) {
  rows_per_block = std::clamp<std::int64_t>(rows_per_block, 1, max_exact_position / 4);
  std::vector<std::int64_t> starts = {0};
  // Blocks straddling 2^k: where the angle p w crosses into a new binade and
  // a float32 position would start to lose its last bits.
  const int step = full ? 1 : 2;
  for (int k = full ? 1 : 3; k < 24; k += step) {
    const std::int64_t power = std::int64_t{1} << k;
    starts.push_back(power - rows_per_block / 2);
    if (full && k >= 2) starts.push_back(power + power / 2 - rows_per_block / 2);  // between two powers
  }
  starts.push_back(max_exact_position - rows_per_block);  // the last rows below 2^24
  std::sort(starts.begin(), starts.end());
  std::vector<TableRequest> blocks;
  std::int64_t covered = 0;  // rows below this are already in a block
  for (std::int64_t start : starts) {
    start = std::max(start, covered);  // blocks never overlap
    if (start + rows_per_block > max_exact_position) continue;
    blocks.push_back(TableRequest{rows_per_block, dim, start});
    covered = start + rows_per_block;
  }
  return blocks;
}

}  // namespace pecheck::properties
