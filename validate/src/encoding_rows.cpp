#include "encoding_rows.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <span>

#include "pecheck/fast_encoding.hpp"

namespace pecheck::validate {

std::vector<double> encoding_rows(const Convention& convention, std::int64_t dim,
                                  const std::vector<std::int64_t>& convention_rows) {
  // One plan for every run of rows: a sample of scattered rows is many runs.
  return encoding_rows(FastEncoder(convention, dim), dim, convention_rows);
}

std::vector<double> encoding_rows(const FastEncoder& encoder, std::int64_t dim,
                                  const std::vector<std::int64_t>& convention_rows) {
  std::vector<double> values(convention_rows.size() * static_cast<std::size_t>(dim));
  std::size_t start = 0;
  while (start < convention_rows.size()) {
    std::size_t end = start + 1;  // one call per run of consecutive rows
    while (end < convention_rows.size() && convention_rows[end] == convention_rows[end - 1] + 1) ++end;
    const TableRequest request{static_cast<std::int64_t>(end - start), dim, convention_rows[start]};
    encoder.encode(request, std::span<double>(values.data() + start * static_cast<std::size_t>(dim),
                                              (end - start) * static_cast<std::size_t>(dim)));
    start = end;
  }
  return values;
}

std::vector<double> row_abs_differences(const Table& table, const std::vector<std::int64_t>& file_rows,
                                        const std::vector<double>& expected) {
  std::vector<double> differences(file_rows.size(), 0.0);
  for (std::size_t k = 0; k < file_rows.size(); ++k) {
    double worst = 0.0;
    const double* row = expected.data() + k * static_cast<std::size_t>(table.cols);
    for (std::int64_t c = 0; c < table.cols; ++c) {
      const double difference = std::fabs(table.at(file_rows[k], c) - row[c]);
      worst = std::isnan(difference) ? std::numeric_limits<double>::infinity() : std::max(worst, difference);
    }
    differences[k] = worst;
  }
  return differences;
}

double max_abs_difference(const Table& table, const std::vector<std::int64_t>& file_rows,
                          const std::vector<double>& expected) {
  double worst = 0.0;
  for (std::size_t k = 0; k < file_rows.size(); ++k) {
    const double* row = expected.data() + k * static_cast<std::size_t>(table.cols);
    for (std::int64_t c = 0; c < table.cols; ++c) {
      const double value = table.at(file_rows[k], c);
      if (std::isfinite(value)) worst = std::max(worst, std::fabs(value - row[c]));
    }
  }
  return worst;
}

double max_abs_difference(const Table& table, const std::vector<std::int64_t>& file_rows, const Convention& convention,
                          const std::vector<std::int64_t>& convention_rows) {
  const FastEncoder encoder(convention, table.cols);
  std::vector<double> buffer;
  double worst = 0.0;
  const auto dim = static_cast<std::size_t>(table.cols);
  visit_encoding_runs(encoder, table.cols, convention_rows, buffer, [&](std::size_t first, std::span<const double> run) {
    for (std::size_t k = 0; k * dim < run.size(); ++k) {
      const std::int64_t file_row = file_rows[first + k];
      const double* row = run.data() + k * dim;
      for (std::int64_t c = 0; c < table.cols; ++c) {
        const double value = table.at(file_row, c);
        if (std::isfinite(value)) worst = std::max(worst, std::fabs(value - row[c]));
      }
    }
  });
  return worst;
}

std::vector<std::int64_t> shifted(const std::vector<std::int64_t>& rows, std::int64_t row_offset) {
  std::vector<std::int64_t> out(rows.size());
  std::transform(rows.begin(), rows.end(), out.begin(), [=](std::int64_t r) { return r + row_offset; });
  return out;
}

}  // namespace pecheck::validate
