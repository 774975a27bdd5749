#include "column_pairs.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <span>
#include <thread>

#include "pecheck/parallel_for.hpp"
#include "table_rows.hpp"

namespace pecheck::validate {

Structure structure_of(const Convention& convention, std::int64_t dim) {
  Structure structure;
  structure.layout = convention.layout;
  structure.odd_dim = convention.odd_dim;
  Convention shape = convention;
  if (dim % 2 == 1 && shape.odd_dim == OddDimPolicy::reject) shape.odd_dim = OddDimPolicy::extra_sin;
  shape.min_dim = 1;
  const std::vector<ColumnSpec> columns = column_layout(shape, dim);
  for (std::int64_t c = 0; c < dim; ++c) {
    if (columns[static_cast<std::size_t>(c)].kind == ColumnKind::zero) structure.zero_columns.push_back(c);
  }
  for (const FrequencyColumns& f : columns_by_frequency(columns)) {
    if (f.paired()) structure.pairs.push_back(f);
  }
  return structure;
}

double pair_tolerance(FormatId format) { return 32.0 * std::ldexp(1.0, -format_of(format).precision); }

namespace {

// From this many rows on, a count is split between two threads (the rows
// are spread over the table: each is a cache miss or more).
constexpr std::size_t parallel_rows = 512;

// For each structure, how many (row, pair) entries of `rows` have sin^2 +
// cos^2 within `tolerance` of 1. Each row is decoded once for all of them.
std::vector<std::int64_t> good_pairs(const Table& table, std::span<const Structure> structures,
                                     std::span<const std::int64_t> rows, double tolerance) {
  std::vector<std::int64_t> good(structures.size(), 0);
  std::vector<double> values(static_cast<std::size_t>(table.cols));
  for (std::int64_t r : rows) {
    decode_row(table.view(), r, values);
    for (std::size_t k = 0; k < structures.size(); ++k) {
      for (const FrequencyColumns& pair : structures[k].pairs) {
        const double s = values[static_cast<std::size_t>(pair.sin_column)];
        const double c = values[static_cast<std::size_t>(pair.cos_column)];
        if (std::fabs(s * s + c * c - 1.0) <= tolerance) ++good[k];  // NaN never counts
      }
    }
  }
  return good;
}

// pair_fraction of each structure, on the same rows.
std::vector<double> pair_fractions(const Table& table, std::span<const Structure> structures,
                                   const std::vector<std::int64_t>& rows, FormatId format) {
  std::vector<double> fractions(structures.size(), 0.0);
  if (rows.empty()) return fractions;
  const double tolerance = pair_tolerance(format);
  const std::span<const std::int64_t> all(rows);
  std::vector<std::int64_t> good;
  if (rows.size() < parallel_rows || machine_threads() < 2) {
    good = good_pairs(table, structures, all, tolerance);
  } else {
    // A count is a count: the halves' sum is the whole's, whichever finishes first.
    std::array<std::vector<std::int64_t>, 2> counts;
    const std::size_t half = rows.size() / 2;
    parallel_for(2, [&](int worker) {
      counts[static_cast<std::size_t>(worker)] =
          good_pairs(table, structures, worker == 0 ? all.first(half) : all.subspan(half), tolerance);
    });
    good = counts[0];
    for (std::size_t k = 0; k < good.size(); ++k) good[k] += counts[1][k];
  }
  for (std::size_t k = 0; k < structures.size(); ++k) {
    if (structures[k].pairs.empty()) continue;
    fractions[k] = static_cast<double>(good[k]) / static_cast<double>(rows.size() * structures[k].pairs.size());
  }
  return fractions;
}

}  // namespace

double pair_fraction(const Table& table, const Structure& structure, const std::vector<std::int64_t>& rows,
                     FormatId format) {
  return pair_fractions(table, std::span(&structure, 1), rows, format).front();
}

bool zero_columns_hold(const Table& table, const Structure& structure, const std::vector<std::int64_t>& rows) {
  for (std::int64_t c : structure.zero_columns) {
    for (std::int64_t r : rows) {
      if (table.at(r, c) != 0.0) return false;
    }
  }
  return true;
}

std::vector<Structure> candidate_structures(const Table& table, const std::vector<std::int64_t>& rows, FormatId format) {
  const std::int64_t dim = table.cols;
  const bool odd = dim % 2 == 1;
  std::vector<Structure> candidates;
  for (Layout layout : {Layout::interleaved, Layout::sin_cos_halves, Layout::cos_sin_halves}) {
    for (OddDimPolicy policy : {OddDimPolicy::zero_column, OddDimPolicy::extra_sin}) {
      if (!odd && policy == OddDimPolicy::zero_column) continue;  // identical at even d
      Convention shape;
      shape.layout = layout;
      shape.odd_dim = policy;
      Structure structure = structure_of(shape, dim);
      if (zero_columns_hold(table, structure, rows)) candidates.push_back(std::move(structure));
    }
  }
  const std::vector<double> fractions = pair_fractions(table, candidates, rows, format);
  for (std::size_t k = 0; k < candidates.size(); ++k) candidates[k].pair_fraction = fractions[k];
  std::stable_sort(candidates.begin(), candidates.end(),
                   [](const Structure& a, const Structure& b) { return a.pair_fraction > b.pair_fraction; });
  return candidates;
}

}  // namespace pecheck::validate
