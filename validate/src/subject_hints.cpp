#include "subject_hints.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>

#include "pecheck/validate/detection.hpp"

namespace pecheck::validate {

namespace {

// Past this many entries the transposed copy is not made: detection's cost
// grows with the rows, and a table this large is rarely the wrong way round.
constexpr std::int64_t largest_transposed = std::int64_t{1} << 24;

// Equal within the rounding of a 16-bit format (2^-8 relative), so a bfloat16 cache still pairs.
bool near(double a, double b) { return std::fabs(a - b) <= 0x1.0p-7 * std::max(1.0, std::fabs(b)); }

// How a rotary cache repeats its columns: rotate-half's halves are equal
// (cos(p w_i) at columns i and i + d/2), interleaved's neighbours are.
bool repeats_columns(const Table& t) {
  if (t.cols < 2 || t.cols % 2 != 0 || t.rows < 2) return false;
  bool halves = true, neighbours = true;
  for (std::int64_t r = 0; r < t.rows && (halves || neighbours); ++r) {
    for (std::int64_t c = 0; c < t.cols / 2; ++c) {
      halves = halves && near(t.at(r, c), t.at(r, c + t.cols / 2));
      neighbours = neighbours && near(t.at(r, 2 * c), t.at(r, 2 * c + 1));
    }
  }
  return halves || neighbours;
}

// Row 0 (position 0) all equal to `value`: cos 0 = 1, sin 0 = 0.
bool first_row_is(const Table& t, double value) {
  for (std::int64_t c = 0; c < t.cols; ++c) {
    if (!near(t.at(0, c), value)) return false;
  }
  return true;
}

Table transposed(const Table& table) {
  Table out = make_table(table.cols, table.rows, table.format);
  for (std::int64_t r = 0; r < table.rows; ++r) {
    for (std::int64_t c = 0; c < table.cols; ++c) out.set(c, r, table.at(r, c));
  }
  return out;
}

}  // namespace

std::string additive_table_hint(const Table& table) {
  if (repeats_columns(table)) {
    if (first_row_is(table, 1.0)) {
      return "it looks like a rotary cos cache (row 0 all ones, the columns repeated in pairs): give its sin "
             "table with --sin SIN.npy (and --rope PRESET or --config config.json if you know the model)";
    }
    if (first_row_is(table, 0.0)) {
      return "it looks like a rotary sin cache (row 0 all zeros, the columns repeated in pairs): give the cos "
             "table as FILE and this one with --sin";
    }
  }
  if (table.rows >= 2 && table.cols >= 2 && table.size() <= largest_transposed) {
    const Detection found = detect_convention(transposed(table));
    if (found.sinusoidal && found.convention) {
      return "it looks transposed: its transpose (" + std::to_string(table.cols) + " rows x " +
             std::to_string(table.rows) + " columns) is a sinusoidal encoding (" +
             found.preset.value_or(found.convention->name) +
             "); pecheck reads rows as positions, so save the table as (positions, d), e.g. np.save(path, table.T)";
    }
  }
  return "";
}

std::string rotary_cache_hint(const Table& cos) {
  const Detection found = detect_convention(cos);
  if (found.sinusoidal && found.convention) {
    return "FILE looks like an additive sinusoidal table (" + found.preset.value_or(found.convention->name) +
           "), not a rotary cos cache: validate it without --sin, --rope and --config";
  }
  if (cos.cols >= 2 && cos.rows >= 2 && cos.size() <= largest_transposed && !repeats_columns(cos) &&
      repeats_columns(transposed(cos))) {
    return "the cache looks transposed (its columns repeat as a rotary cache's rows should): save it as (positions, "
           "rotary columns), e.g. np.save(path, cos.T)";
  }
  return "";
}

}  // namespace pecheck::validate
