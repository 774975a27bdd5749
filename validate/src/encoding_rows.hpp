// Rows of a convention's encoding from pecheck's fast float64 path (within
// about 1 float64 ULP of the exact values): the yardstick for choosing among
// candidate conventions and for diagnosing faults over a whole table, where
// the correctly rounded reference would cost too much.
#pragma once

#include <cstdint>
#include <vector>

#include "pecheck/convention.hpp"
#include "pecheck/fast_encoding.hpp"
#include "pecheck/table.hpp"

namespace pecheck::validate {

// The convention's rows `convention_rows` (any order; every position in
// [0, 2^24)), row-major, dim values each.
std::vector<double> encoding_rows(const Convention& convention, std::int64_t dim,
                                  const std::vector<std::int64_t>& convention_rows);
// The same with the encoder's plan (its convention and width), for callers
// that ask again and again.
std::vector<double> encoding_rows(const FastEncoder& encoder, std::int64_t dim,
                                  const std::vector<std::int64_t>& convention_rows);

// max over the listed file rows and every column of |table - expected|, where
// expected holds those rows in the same order. Non-finite table values are
// skipped: they are reported on their own, and must not make every
// candidate convention look equally bad.
double max_abs_difference(const Table& table, const std::vector<std::int64_t>& file_rows,
                          const std::vector<double>& expected);

// Row by row, with a non-finite table value counting as an infinite error.
std::vector<double> row_abs_differences(const Table& table, const std::vector<std::int64_t>& file_rows,
                                        const std::vector<double>& expected);

// file rows r -> convention rows r + row_offset.
std::vector<std::int64_t> shifted(const std::vector<std::int64_t>& rows, std::int64_t row_offset);

}  // namespace pecheck::validate
