// Rows of a convention's encoding from pecheck's fast float64 path (within
// about 1 float64 ULP of the exact values): the yardstick for choosing among
// candidate conventions and for diagnosing faults over a whole table, where
// the correctly rounded reference would cost too much.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
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

// The same rows, one run of consecutive rows at a time: visit(first, values)
// gets the run starting at convention_rows[first], row-major, in `buffer`
// (grown to the longest run and reused). The encoder is called exactly as
// encoding_rows calls it, so the values are the same bits; a caller that
// folds each run as it comes needs no buffer of every row (256 rows of 1024
// are 2 MiB, zeroed and faulted in afresh on every call).
template <class Visit>
void visit_encoding_runs(const FastEncoder& encoder, std::int64_t dim, const std::vector<std::int64_t>& convention_rows,
                         std::vector<double>& buffer, Visit&& visit) {
  const auto width = static_cast<std::size_t>(dim);
  std::size_t start = 0;
  while (start < convention_rows.size()) {
    std::size_t end = start + 1;
    while (end < convention_rows.size() && convention_rows[end] == convention_rows[end - 1] + 1) ++end;
    const std::size_t count = (end - start) * width;
    if (buffer.size() < count) buffer.resize(count);
    encoder.encode(TableRequest{static_cast<std::int64_t>(end - start), dim, convention_rows[start]},
                   std::span<double>(buffer.data(), count));
    visit(start, std::span<const double>(buffer.data(), count));
    start = end;
  }
}

// max over the listed file rows and every column of |table - expected|, where
// expected holds those rows in the same order. Non-finite table values are
// skipped: they are reported on their own, and must not make every
// candidate convention look equally bad.
double max_abs_difference(const Table& table, const std::vector<std::int64_t>& file_rows,
                          const std::vector<double>& expected);
// The same against the convention's rows `convention_rows` (one for each file
// row), encoded a run at a time rather than all at once.
double max_abs_difference(const Table& table, const std::vector<std::int64_t>& file_rows, const Convention& convention,
                          const std::vector<std::int64_t>& convention_rows);

// Row by row, with a non-finite table value counting as an infinite error.
std::vector<double> row_abs_differences(const Table& table, const std::vector<std::int64_t>& file_rows,
                                        const std::vector<double>& expected);

// file rows r -> convention rows r + row_offset.
std::vector<std::int64_t> shifted(const std::vector<std::int64_t>& rows, std::int64_t row_offset);

}  // namespace pecheck::validate
