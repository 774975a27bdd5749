#include "position_steps.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <span>

#include "pecheck/half_bits.hpp"

namespace pecheck::validate {

namespace {

// Past this many first positions that group the rows alike, the steps do not
// pin the position of row 0 (a few identical pairs in a long table): the
// angles' search is left to it.
constexpr std::size_t most_first_positions = 256;

// Rows of one storage type T, each value read as `decode` gives it (the
// same doubles as at()): a row's values by a pointer, not one decoded
// address per value (at() took 5 ns per row over a 65536-row cache, where
// the first value of a row already tells it from the next).
template <typename T, typename Decode>
struct TypedRows {
  const TableView& table;
  Decode decode;

  bool is_zero_row(std::int64_t row) const {
    for (const T v : table.row<T>(row)) {
      if (decode(v) != 0.0) return false;
    }
    return true;
  }

  bool same_row(std::int64_t a, std::int64_t b) const {
    const std::span<const T> x = table.row<T>(a);
    const std::span<const T> y = table.row<T>(b);
    for (std::size_t c = 0; c < x.size(); ++c) {
      if (decode(x[c]) != decode(y[c])) return false;  // NaN differs from everything
    }
    return true;
  }

  SuccessiveCount add(std::int64_t first, std::int64_t last, std::span<std::int8_t> identical) const {
    SuccessiveCount count;
    bool previous_zero = is_zero_row(first);
    for (std::int64_t r = first; r < last; ++r) {
      const bool next_zero = is_zero_row(r + 1);
      std::int8_t& pair = identical[static_cast<std::size_t>(r)];
      if (previous_zero || next_zero) {
        pair = -1;
      } else if (same_row(r, r + 1)) {
        pair = 1;
        if (count.identical_pairs++ == 0) count.first_identical = r;
      }
      previous_zero = next_zero;
    }
    return count;
  }
};

template <typename T, typename Decode>
SuccessiveCount add_typed(const TableView& table, std::int64_t first, std::int64_t last,
                          std::span<std::int8_t> identical, Decode decode) {
  return TypedRows<T, Decode>{table, decode}.add(first, last, identical);
}

// True when positions p0, p0 + 1, ... held in `format` are equal exactly
// where the table's successive rows are identical.
bool groups_rows(const SuccessiveRows& rows, FormatId format, std::int64_t p0) {
  std::int64_t previous = held_position(p0, format);
  for (std::size_t r = 0; r < rows.identical.size(); ++r) {
    const std::int64_t next = held_position(p0 + static_cast<std::int64_t>(r) + 1, format);
    if (rows.identical[r] >= 0 && (rows.identical[r] == 1) != (previous == next)) return false;
    previous = next;
  }
  return true;
}

// Every P0 whose rounding puts a step between rows `boundary` and
// `boundary + 1`: for each pair of neighbouring integers v < v + s of the
// format with s >= 2 (a step two rows can share), the tie m = v + s / 2
// rounds to whichever of the two has an even significand, so the step lies
// between positions m and m + 1 (m goes down) or m - 1 and m (m goes up).
std::vector<std::int64_t> first_positions_at_step(FormatId format, std::int64_t boundary, std::int64_t min_first,
                                                  std::int64_t max_first) {
  const int q = format_of(format).precision;
  std::vector<std::int64_t> found;
  for (int e = q; e < 24; ++e) {
    const std::int64_t spacing = std::int64_t{1} << (e - q + 1);
    const std::int64_t count = std::int64_t{1} << (q - 1);  // values in [2^e, 2^(e+1))
    for (std::int64_t j = 0; j < count; ++j) {
      const std::int64_t m = (std::int64_t{1} << e) + j * spacing + spacing / 2;
      const bool goes_down = j % 2 == 0;  // v's significand 2^(q-1) + j is even
      const std::int64_t p0 = (goes_down ? m : m - 1) - boundary;
      if (p0 >= min_first && p0 <= max_first) found.push_back(p0);
      // Rounding is symmetric: -m rounds to -v, so the step lies between
      // -m - 1 and -m (m goes down) or -m and -m + 1 (m goes up), for the
      // negative positions of a relative encoding read in reverse.
      const std::int64_t negative_p0 = (goes_down ? -m - 1 : -m) - boundary;
      if (negative_p0 >= min_first && negative_p0 <= max_first) found.push_back(negative_p0);
    }
  }
  std::sort(found.begin(), found.end());
  return found;
}

}  // namespace

SuccessiveCount add_successive_rows(const TableView& table, std::int64_t first, std::int64_t last,
                                    std::span<std::int8_t> identical) {
  if (first >= last) return {};
  switch (table.format()) {
    case FormatId::float64:
      return add_typed<double>(table, first, last, identical, [](double v) { return v; });
    case FormatId::float32:
      return add_typed<float>(table, first, last, identical, [](float v) { return static_cast<double>(v); });
    case FormatId::float16:
      return add_typed<std::uint16_t>(table, first, last, identical,
                                      [](std::uint16_t v) { return float16_bits_to_double(v); });
    case FormatId::bfloat16:
      return add_typed<std::uint16_t>(table, first, last, identical,
                                      [](std::uint16_t v) { return bfloat16_bits_to_double(v); });
  }
  return {};
}

void add_successive_count(SuccessiveRows& rows, const SuccessiveCount& range) {
  if (rows.identical_pairs == 0) rows.first_identical = range.first_identical;
  rows.identical_pairs += range.identical_pairs;
}

SuccessiveRows successive_rows(const TableView& table) {
  SuccessiveRows rows = successive_rows_to_add(table.rows());
  add_successive_count(rows, add_successive_rows(table, 0, table.rows() - 1, rows.identical));
  return rows;
}

SuccessiveRows successive_rows_to_add(std::int64_t table_rows) {
  SuccessiveRows rows;
  if (table_rows >= 2) rows.identical.assign(static_cast<std::size_t>(table_rows - 1), 0);
  return rows;
}

std::int64_t held_position(std::int64_t p, FormatId format) {
  return static_cast<std::int64_t>(round_to_format(static_cast<double>(p), format_of(format)));
}

std::vector<std::int64_t> held_convention_rows(const std::vector<std::int64_t>& rows, std::int64_t row_offset,
                                               const Convention& convention, std::optional<FormatId> held) {
  std::vector<std::int64_t> out;
  out.reserve(rows.size());
  for (std::int64_t r : rows) {
    if (!held) {
      out.push_back(r + row_offset);
      continue;
    }
    out.push_back(row_of_position(convention, held_position(position_of_row(convention, r + row_offset), *held)));
  }
  return out;
}

std::optional<PositionSteps> fit_position_steps(const SuccessiveRows& rows, std::int64_t min_first,
                                                std::int64_t max_first, const std::vector<FormatId>& formats) {
  if (rows.identical_pairs == 0) return std::nullopt;
  // The first step after the first identical pair: a boundary between two
  // runs, at least one of them shared by two positions.
  std::int64_t boundary = -1;
  for (std::size_t r = static_cast<std::size_t>(rows.first_identical) + 1; r < rows.identical.size(); ++r) {
    if (rows.identical[r] == 0) {
      boundary = static_cast<std::int64_t>(r);
      break;
    }
  }
  if (boundary < 0) return std::nullopt;  // one run to the end: nothing pins P0
  const auto last_row = static_cast<std::int64_t>(rows.identical.size());
  for (FormatId format : formats) {
    // Positions past the largest finite value become infinity: no step there.
    // float32's and bfloat16's (3.4e38) are beyond int64: the cast and the
    // subtraction below would overflow, so the bound is capped at 2^62,
    // far past any position a table holds.
    const double largest_value = largest_finite(format_of(format));
    const std::int64_t largest =
        largest_value < 0x1p62 ? static_cast<std::int64_t>(largest_value) : std::int64_t{1} << 62;
    PositionSteps steps{format, rows.identical_pairs, rows.first_identical, {}};
    for (std::int64_t p0 : first_positions_at_step(format, boundary, min_first, std::min(max_first, largest - last_row - 1))) {
      if (!groups_rows(rows, format, p0)) continue;
      steps.first_positions.push_back(p0);
      if (steps.first_positions.size() > most_first_positions) break;
    }
    if (steps.first_positions.empty()) continue;
    if (steps.first_positions.size() > most_first_positions) steps.first_positions.clear();
    return steps;
  }
  return std::nullopt;
}

}  // namespace pecheck::validate
