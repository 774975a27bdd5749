// LibmAllowance::row_bounds' plain path (accumulator_kernels.hpp), compiled
// once per instruction-set variant: ulp_of's plain-double path lane by lane,
// the angle's binade read from its bits and floored at the format's smallest
// normal binade (libm_allowance.cpp checks that every angle of the row is a
// normal double and the quantum at least -1022 before it calls this).
#include <algorithm>
#include <bit>
#include <cstdint>
#include <cstring>

#include "accumulator_kernels.hpp"

namespace pecheck::accuracy {

namespace {

// out[k] = inv[column[k]], one load at a time: as vector gathers (what GCC
// makes of this loop) it cost three times as much in the command.
#if defined(__GNUC__) && !defined(__clang__)
__attribute__((optimize("no-tree-vectorize")))
#endif
void gather(const double* __restrict inv, const std::uint64_t* __restrict column, std::size_t n,
            double* __restrict out) {
  for (std::size_t k = 0; k < n; ++k) out[k] = inv[column[k]];
}

}  // namespace

bool libm_row_bounds(const LibmRowBounds& row, double* out, std::size_t count) {
  const double p = row.position;
  const double factor = row.factor;
  const double relative = row.relative;
  const std::size_t columns = row.columns;
  const std::int64_t min_exponent = row.min_exponent;
  const int shift = row.shift;
  const double* __restrict inv = row.inv_freq_of_column;
  double* __restrict bounds = out;
  const auto bound = [&](double inv_freq) {
    const double angle = p * inv_freq;
    const auto field = static_cast<std::int64_t>((std::bit_cast<std::uint64_t>(angle) >> 52) & 0x7ff);
    const std::int64_t quantum = std::max(field - 1023, min_exponent) - shift;
    const double angle_ulp =
        angle == 0.0 ? 0.0 : std::bit_cast<double>(static_cast<std::uint64_t>(quantum + 1023) << 52);
    return factor * (relative * angle + angle_ulp);
  };
  if (row.column != nullptr) {
    // Entries of given columns (below row.columns, or false), a stretch at a
    // time. Where the stretch's columns follow each other (a row of distinct
    // entries: each table's first copies) their inv_freq are read in place;
    // elsewhere they are gathered first, then the stretch's bounds computed
    // in one vector pass (a loop that gathers as it goes stays scalar). The
    // columns are checked in a pass of their own (a check in the gathering
    // loop kept it scalar too). A column out of range may be found after
    // some bounds are written: the caller then computes them all again.
    const auto* __restrict column = reinterpret_cast<const std::uint64_t*>(row.column);
    constexpr std::size_t stretch = 64;
    double gathered[stretch];
    // The consecutive stretches computed so far (their first entry and
    // column): a stretch whose inv_freq are the same bits as an earlier one's
    // (a sin column's are its cos column's) has the same bounds, copied. One
    // a period past an earlier one has them by the period's definition (no
    // comparison); a whole one is copied as a fixed size (vector moves,
    // where a copy of a variable size was a string move).
    constexpr std::size_t remembered = 4;
    std::size_t done_entry[remembered];
    std::uint64_t done_column[remembered];
    std::size_t done = 0;
    const std::uint64_t period = row.period;
    for (std::size_t c = 0; c < count; c += stretch) {
      const std::size_t run = std::min(stretch, count - c);
      const std::uint64_t first = column[c];
      std::uint64_t differ = 0;
      for (std::size_t k = 0; k < run; ++k) differ |= column[c + k] ^ (first + k);
      if (differ == 0 && first < columns && run <= columns - first) {
        bool copied = false;
        for (std::size_t d = 0; d < done && !copied; ++d) {
          // An earlier stretch is a whole one (stretch entries), this one may be the last.
          if ((period != 0 && first == done_column[d] + period) ||
              std::memcmp(inv + done_column[d], inv + first, run * sizeof(double)) == 0) {
            if (run == stretch) {
              std::memcpy(bounds + c, bounds + done_entry[d], stretch * sizeof(double));
            } else {
              std::memcpy(bounds + c, bounds + done_entry[d], run * sizeof(double));
            }
            copied = true;
          }
        }
        if (copied) continue;
        for (std::size_t k = 0; k < run; ++k) bounds[c + k] = bound(inv[first + k]);
        if (done < remembered && run == stretch) {
          done_entry[done] = c;
          done_column[done] = first;
          ++done;
        }
        continue;
      }
      std::uint64_t largest = 0;
      for (std::size_t k = 0; k < run; ++k) largest = std::max(largest, column[c + k]);
      if (largest >= columns) return false;
      gather(inv, column + c, run, gathered);
      for (std::size_t k = 0; k < run; ++k) bounds[c + k] = bound(gathered[k]);
    }
    return true;
  }
  // One repetition of the columns computed (a cache row's, or a planned
  // row's entries up to their repeat), then copied on: the same inv_freq,
  // the same bounds.
  const std::size_t first = std::min(columns, count);
  for (std::size_t k = 0; k < first; ++k) bounds[k] = bound(inv[k]);
  for (std::size_t c = first; c < count; c += columns) {
    std::memcpy(bounds + c, bounds, std::min(columns, count - c) * sizeof(double));
  }
  return true;
}

}  // namespace pecheck::accuracy
