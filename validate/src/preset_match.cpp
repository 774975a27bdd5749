#include "preset_match.hpp"

#include <algorithm>

namespace pecheck::validate {

namespace {

std::vector<std::int64_t> zero_rows_within(const Convention& convention, std::int64_t first, std::int64_t end) {
  std::vector<std::int64_t> rows;
  for (std::int64_t row : convention.zero_rows) {
    if (row >= first && row < end) rows.push_back(row);
  }
  std::sort(rows.begin(), rows.end());
  rows.erase(std::unique(rows.begin(), rows.end()), rows.end());
  return rows;
}

}  // namespace

bool same_frequencies(const Convention& a, const Convention& b, std::int64_t dim) {
  const std::int64_t count = frequency_count(a, dim);
  if (count != frequency_count(b, dim)) return false;
  for (std::int64_t i = 0; i < count; ++i) {
    if (!same_frequency(frequency_term(a, dim, i), frequency_term(b, dim, i))) return false;
  }
  return true;
}

bool same_table(const Convention& unresolved, const Convention& found, std::int64_t dim, std::int64_t row_offset,
                std::int64_t rows) {
  // A relative preset's first position follows the length: the table is
  // rows [row_offset, row_offset + rows) of its table of row_offset + rows rows.
  Convention preset;
  try {
    preset = for_rows(unresolved, row_offset + rows);
  } catch (const ConventionError&) {
    return false;  // an even row count for a centred span: not this preset
  }
  if (dim < preset.min_dim) return false;
  if (preset.layout != found.layout || !same_frequencies(preset, found, dim)) return false;
  if (preset.position_offset != found.position_offset || preset.position_step != found.position_step) return false;
  if (dim % 2 == 1 && preset.odd_dim != found.odd_dim) return false;
  return zero_rows_within(preset, row_offset, row_offset + rows) == zero_rows_within(found, row_offset, row_offset + rows);
}

std::vector<Convention> matching_presets(const Convention& found, std::int64_t dim, std::int64_t row_offset,
                                         std::int64_t rows) {
  std::vector<Convention> matches;
  for (const Convention& preset : all_presets()) {
    if (same_table(preset, found, dim, row_offset, rows)) matches.push_back(for_rows(preset, row_offset + rows));
  }
  return matches;
}

}  // namespace pecheck::validate
