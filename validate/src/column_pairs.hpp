// The column structure of a layout: which columns hold the sin and cos of
// each frequency, which column is a lone sin (odd width, extra_sin) and which
// is zero, and how well a table's columns pair up under it.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "pecheck/convention.hpp"
#include "pecheck/format.hpp"
#include "pecheck/table.hpp"

namespace pecheck::validate {

struct Structure {
  Layout layout = Layout::interleaved;
  OddDimPolicy odd_dim = OddDimPolicy::extra_sin;  // what an odd width does; for even d, extra_sin
  std::vector<FrequencyColumns> pairs;
  std::vector<std::int64_t> zero_columns;
  double pair_fraction = 0.0;  // filled by score_structure
};

// The structure of a convention at width d (its rule does not matter).
Structure structure_of(const Convention& convention, std::int64_t dim);

// How far sin^2 + cos^2 of one pair may be from 1 and still count as a pair:
// values within a few ULP of the exact sin and cos (|s|, |c| <= 1, ulp <=
// 2^(1-p)) give |s^2 + c^2 - 1| <= 2 (|s| + |c|) k 2^(1-p) < 6 k 2^-p for
// k ULP; 32 x 2^-p allows k = 5 while random values in [-1, 1] pass with
// probability about 0.2 in bfloat16 and almost never in wider formats.
double pair_tolerance(FormatId format);

// The fraction of (row, pair) entries of `rows` with |s^2 + c^2 - 1| within
// the tolerance. 0 when the structure has no pairs.
double pair_fraction(const Table& table, const Structure& structure, const std::vector<std::int64_t>& rows,
                     FormatId format);

// True when every listed zero column is +-0 in every row of `rows`.
bool zero_columns_hold(const Table& table, const Structure& structure, const std::vector<std::int64_t>& rows);

// Every layout and odd-width policy that fits the width, scored on `rows`,
// best pairing first. Sin-cos and cos-sin halves pair the same columns at
// even d; the frequencies tell them apart (see frequency_fit.hpp).
std::vector<Structure> candidate_structures(const Table& table, const std::vector<std::int64_t>& rows, FormatId format);

}  // namespace pecheck::validate
