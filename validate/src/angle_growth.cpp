#include "angle_growth.hpp"

#include <cmath>
#include <map>
#include <numbers>
#include <sstream>

#include "encoding_rows.hpp"
#include "table_rows.hpp"
#include "pecheck/number_text.hpp"

namespace pecheck::validate {

namespace {

// Entries read (rows spread over the table): enough for the mean of a
// quantity that is 0 or one ULP per entry to settle within a few percent
// when a few percent of the entries cross a boundary.
constexpr std::size_t most_entries = std::size_t{1} << 18;
constexpr std::size_t chunk_rows = 1024;
// Octaves with fewer entries off their correctly rounded value carry no
// measure of the mean (a count of n has a relative noise of 1/sqrt(n)).
constexpr double least_crossings = 16;
// The mean relative error of a value rounded to q significant bits, for
// significands spread log-uniformly over [1, 2): the error is uniform within
// half an ULP, 2^(1-q) / m, so its mean magnitude is 2^(1-q) / (4 m), and
// E[1/m] = 1 / (2 ln 2): 2^-q / (4 ln 2) = 0.361 * 2^-q.
const double mean_relative_rounding = 1.0 / (4.0 * std::numbers::ln2);

struct Octave {
  double deviation = 0.0;  // sum of |table - round(exact)|
  double leverage = 0.0;   // sum of p w |d value / d angle|
  double crossings = 0.0;  // entries off their correctly rounded value
  double entries = 0.0;
  double position = 0.0;   // sum of p, for the octave's mean position
};

}  // namespace

std::optional<Hazard> angle_precision_through_rounding(const Table& table, const Convention& convention,
                                                       const RowErrors& scan, FormatId format) {
  const Format& f = format_of(format);
  // Wider formats show the angles' error in each row's largest error
  // (faults.hpp); and float64 angles are no fault (the float64-angle bound).
  if (scan.rows.empty() || f.precision >= format_of(FormatId::float32).precision) return std::nullopt;
  const std::vector<ColumnSpec> columns = column_layout(convention, table.cols);
  std::vector<double> w(columns.size(), 0.0);
  for (std::size_t c = 0; c < columns.size(); ++c) {
    if (columns[c].kind != ColumnKind::zero) w[c] = frequency_value(convention, table.cols, columns[c].frequency_index);
  }
  std::vector<std::size_t> picks(scan.rows.size());
  for (std::size_t k = 0; k < picks.size(); ++k) picks[k] = k;
  std::vector<std::int64_t> as_rows(picks.begin(), picks.end());
  const std::size_t row_budget = std::max<std::size_t>(2, most_entries / static_cast<std::size_t>(table.cols));
  const std::vector<std::int64_t> chosen = spread_sample(as_rows, row_budget);  // indices into scan

  std::map<int, Octave> octaves;
  for (std::size_t start = 0; start < chosen.size(); start += chunk_rows) {
    const std::size_t end = std::min(chosen.size(), start + chunk_rows);
    std::vector<std::int64_t> convention_rows;
    for (std::size_t k = start; k < end; ++k) {
      convention_rows.push_back(row_of_position(convention, scan.positions[static_cast<std::size_t>(chosen[k])]));
    }
    const std::vector<double> exact = encoding_rows(convention, table.cols, convention_rows);
    for (std::size_t k = start; k < end; ++k) {
      const auto index = static_cast<std::size_t>(chosen[k]);
      const std::int64_t p = std::llabs(scan.positions[index]);  // the growth is in |p|
      if (p < 1) continue;
      Octave& octave = octaves[std::ilogb(static_cast<double>(p))];
      for (std::int64_t c = 0; c < table.cols; ++c) {
        if (w[static_cast<std::size_t>(c)] == 0.0) continue;
        const double value = table.at(scan.rows[index], c);
        const double e = exact[(k - start) * static_cast<std::size_t>(table.cols) + static_cast<std::size_t>(c)];
        if (!std::isfinite(value)) continue;
        const double deviation = std::fabs(value - round_to_format(e, f));
        octave.deviation += deviation;
        octave.crossings += deviation > 0.0;
        octave.leverage += static_cast<double>(p) * w[static_cast<std::size_t>(c)] * std::sqrt(std::max(0.0, 1.0 - e * e));
        octave.entries += 1.0;
        octave.position += static_cast<double>(p);
      }
    }
  }
  std::vector<double> log_p, log_mean;
  double deviation = 0.0, leverage = 0.0;
  for (const auto& [ignored, octave] : octaves) {
    if (octave.crossings < least_crossings || octave.leverage <= 0.0) continue;
    log_p.push_back(std::log2(octave.position / octave.entries));
    log_mean.push_back(std::log2(octave.deviation / octave.entries));
    deviation += octave.deviation;
    leverage += octave.leverage;
  }
  // Growth needs at least two octaves two apart.
  if (log_p.size() < 2 || log_p.back() - log_p.front() < 2.0) return std::nullopt;
  const double n = static_cast<double>(log_p.size());
  double mx = 0, my = 0;
  for (std::size_t k = 0; k < log_p.size(); ++k) mx += log_p[k] / n, my += log_mean[k] / n;
  double sxy = 0, sxx = 0;
  for (std::size_t k = 0; k < log_p.size(); ++k) {
    sxy += (log_p[k] - mx) * (log_mean[k] - my);
    sxx += (log_p[k] - mx) * (log_p[k] - mx);
  }
  const double slope = sxy / sxx;
  if (slope < 0.5 || slope > 1.5) return std::nullopt;
  const double bits = -std::log2(deviation / leverage / mean_relative_rounding);
  std::ostringstream evidence;
  evidence << "below " << f.name << "'s own rounding: the mean |table - exact rounded to " << f.name
           << "| grows with the position, from " << significant(std::exp2(log_mean.front()), 3) << " near position "
           << significant(std::exp2(log_p.front()), 6) << " to " << significant(std::exp2(log_mean.back()), 3) << " near position "
           << significant(std::exp2(log_p.back()), 6) << " (log-log slope " << significant(slope, 3)
           << "), as values computed from angles with a relative error about 2^-" << significant(bits, 3)
           << " and then rounded are, i.e. angles p w with about " << significant(std::round(bits), 3)
           << " significant bits";
  if (const auto named = nearest_precision(bits)) evidence << ", as " << named->name << " angles give";
  evidence << " (CONVENTIONS.md fault 2).";
  return Hazard{HazardKind::angle_precision, evidence.str()};
}

}  // namespace pecheck::validate
