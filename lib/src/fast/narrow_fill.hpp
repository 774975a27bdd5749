// Filling table rows in float32, float16 or bfloat16 from the rotated rows
// (rotated_rows.hpp): per row one pass over the frequencies that rotates the
// anchor, rounds to the format and stores into the layout's columns, so the
// doubles never leave registers (with AVX-512, narrow_rotation_avx512.hpp).
// A large output is written with streaming stores, straight from that pass
// where the build has AVX-512, else a row at a time from an L1-sized buffer
// (stream_store.hpp); rows are split across threads (row_blocks.hpp).
#pragma once

#include <cstdint>
#include <vector>

#include "pecheck/convention.hpp"
#include "rotated_rows.hpp"
#include "unit_rounding.hpp"

namespace pecheck {

// How each output holds the double it is rounded from: rounded once.
struct Float32Output {
  using Value = float;
  static float convert(double x) { return static_cast<float>(x); }
};
struct Float16Output {
  using Value = std::uint16_t;
  static std::uint16_t convert(double x) { return unit_interval_float16_bits(x); }
};
struct BFloat16Output {
  using Value = std::uint16_t;
  static std::uint16_t convert(double x) { return unit_interval_bfloat16_bits(x); }
};
// The doubles themselves, before rounding: what the tests and fast_table use
// to see that every narrow output is one double rounded once.
struct SourceOutput {
  using Value = double;
  static double convert(double x) { return x; }
};

// A layout as the rotation loop sees it: runs where the sin and the cos of
// the same frequencies sit at the same column stride (every even width of
// every preset is two such runs, or one pair of them), the entries left over
// (the extra sin column of an odd width), and the zero columns.
struct PairedRun {
  std::int64_t first_frequency = 0;
  std::int64_t count = 0;
  std::int64_t sin_column = 0;
  std::int64_t cos_column = 0;
  std::int64_t column_stride = 1;
};
struct LoneEntry {
  ColumnKind kind = ColumnKind::sin;
  std::int64_t frequency = 0;
  std::int64_t column = 0;
};
struct NarrowLayout {
  std::int64_t dim = 0;
  std::vector<PairedRun> pairs;
  std::vector<LoneEntry> lone;
  std::vector<std::int64_t> zero_columns;
  std::vector<std::int64_t> sin_columns;  // negated for negative positions
};

// Built from column_layout(convention, d) alone.
NarrowLayout narrow_layout(const std::vector<ColumnSpec>& columns);

// Rows [first_row, first_row + row_count) of the table whose row r holds the
// convention's row r + row_offset, row-major into out, on `threads` threads.
template <class Output>
void fill_narrow_rows(const Convention& convention, const NarrowLayout& layout, const TurnsView& turns,
                      const RotationTable& rotations, std::int64_t first_row, std::int64_t row_count,
                      std::int64_t row_offset, typename Output::Value* out, int threads);

}  // namespace pecheck
