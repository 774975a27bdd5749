#include "faults.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <sstream>

#include "encoding_rows.hpp"
#include "pecheck/number_text.hpp"

namespace pecheck::validate {

namespace {

// Rows per call to the fast path while scanning: bounds the memory of the
// expected values to chunk_rows * dim doubles on tables of any size. At 4096
// rows of width 1024 each chunk was 32 MiB, mapped afresh (past malloc's
// largest mmap threshold), and zeroing and faulting it in took a quarter of
// a full validate's time. 512 rows (4 MiB at width 1024) is reused from the
// heap; the fast path's plan is built once for all chunks.
constexpr std::size_t chunk_rows = 512;
// Past this the error of sin or cos no longer grows with the angle's error.
constexpr double saturation = 0.25;

}  // namespace

std::vector<double> errors_at(const Table& table, const Convention& convention, const std::vector<std::int64_t>& rows,
                              const std::vector<std::int64_t>& positions) {
  std::vector<double> errors;
  errors.reserve(rows.size());
  const FastEncoder encoder(convention, table.cols);
  for (std::size_t start = 0; start < rows.size(); start += chunk_rows) {
    const std::size_t end = std::min(rows.size(), start + chunk_rows);
    const std::vector<std::int64_t> chunk(rows.begin() + static_cast<std::ptrdiff_t>(start),
                                          rows.begin() + static_cast<std::ptrdiff_t>(end));
    std::vector<std::int64_t> convention_rows;
    for (std::size_t k = start; k < end; ++k) convention_rows.push_back(row_of_position(convention, positions[k]));
    const std::vector<double> part =
        row_abs_differences(table, chunk, encoding_rows(encoder, table.cols, convention_rows));
    errors.insert(errors.end(), part.begin(), part.end());
  }
  return errors;
}

// The format whose significand is nearest q bits, within 2.5 bits.
std::optional<NamedPrecision> nearest_precision(double q) {
  const NamedPrecision known[] = {{"float64", 53}, {"float32", 24}, {"float16", 11}, {"bfloat16", 8}};
  std::optional<NamedPrecision> nearest;
  for (const NamedPrecision& k : known) {
    if (std::fabs(q - k.bits) <= 2.5 && (!nearest || std::fabs(q - k.bits) < std::fabs(q - nearest->bits))) nearest = k;
  }
  return nearest;
}


RowErrors scan_row_errors(const Table& table, const Convention& convention, std::int64_t row_offset,
                          const std::vector<std::int64_t>& rows) {
  RowErrors scan;
  scan.rows = rows;
  for (std::int64_t r : rows) scan.positions.push_back(position_of_row(convention, r + row_offset));
  scan.errors = errors_at(table, convention, scan.rows, scan.positions);
  return scan;
}

std::optional<Hazard> angle_precision(const RowErrors& errors, double w_max, double tolerance) {
  // The largest error in each octave of positions [2^b, 2^(b+1)), and where.
  std::map<int, std::pair<double, std::int64_t>> octaves;
  for (std::size_t k = 0; k < errors.rows.size(); ++k) {
    // sin(-x) = -sin(x): an angle's error grows with |p| on either side of 0.
    const std::int64_t p = std::llabs(errors.positions[k]);
    if (p < 1 || !std::isfinite(errors.errors[k])) continue;
    auto& octave = octaves[std::ilogb(static_cast<double>(p))];
    if (errors.errors[k] >= octave.first) octave = {errors.errors[k], p};
  }
  std::vector<double> log_p;
  std::vector<double> log_e;
  std::vector<double> levels;  // e / (p w_max)
  for (const auto& [octave, worst] : octaves) {
    if (worst.first <= tolerance || worst.first >= saturation) continue;
    log_p.push_back(std::log2(static_cast<double>(worst.second)));
    log_e.push_back(std::log2(worst.first));
    levels.push_back(worst.first / (static_cast<double>(worst.second) * w_max));
  }
  if (levels.empty()) return std::nullopt;
  std::ostringstream evidence;
  double slope = 1.0;
  if (levels.size() >= 2 && log_p.back() - log_p.front() >= 2.0) {
    const double n = static_cast<double>(log_p.size());
    double mx = 0, my = 0;
    for (std::size_t k = 0; k < log_p.size(); ++k) mx += log_p[k] / n, my += log_e[k] / n;
    double sxy = 0, sxx = 0;
    for (std::size_t k = 0; k < log_p.size(); ++k) sxy += (log_p[k] - mx) * (log_e[k] - my), sxx += (log_p[k] - mx) * (log_p[k] - mx);
    slope = sxy / sxx;
    // Rounding errors of one angle scatter within a factor of about 4 around
    // p w 2^-q, so over an octave's worst entries the growth is linear within 1/2.
    if (slope < 0.5 || slope > 1.5) return std::nullopt;
    evidence << "the largest absolute error grows with the position, from " << significant(std::exp2(log_e.front()), 3)
             << " near position " << significant(std::exp2(log_p.front()), 6) << " to " << significant(std::exp2(log_e.back()), 3)
             << " near position " << significant(std::exp2(log_p.back()), 6) << " (log-log slope " << significant(slope, 3) << ")";
  } else {
    evidence << "the largest absolute error is " << significant(std::exp2(log_e.front()), 3) << " near position "
             << significant(std::exp2(log_p.front()), 6) << " (one range of positions: the growth is not fitted)";
  }
  std::sort(levels.begin(), levels.end());
  const double level = levels[levels.size() / 2];
  const double bits = -std::log2(level);
  evidence << "; fitted abs error ~ 2^-" << significant(bits, 3) << " p w_max, i.e. angles p w with about "
           << significant(std::round(bits), 3) << " significant bits";
  if (const auto named = nearest_precision(bits)) {
    evidence << ", as " << named->name << " angles give";
  }
  evidence << " (CONVENTIONS.md fault 2).";
  return Hazard{HazardKind::angle_precision, evidence.str()};
}

}  // namespace pecheck::validate
